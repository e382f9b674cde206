# Sourced by the checks that build sites from the fixture feeds (browser-proof, axe-check,
# validate-html, screenshots): sets `feedsite` (FEEDSITE, a relative path taken from the current
# folder when it is there, else from the repository) and `repo`, and moves to the repository.
# The fixture feeds name real icon hosts: no icon request leaves the machine (avatars: monograms).
export FEEDSITE_AVATARS=off
feedsite=${FEEDSITE:-.build/debug/feedsite}
if [[ "$feedsite" != /* && -e "$feedsite" ]]; then feedsite="$PWD/$feedsite"; fi
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"
