# feedsite — the two commands a new machine needs are `make site` and `make test`.
SWIFT ?= swift
FEEDSITE_RELEASE := .build/release/feedsite
CONFIG ?= feeds.yml

.PHONY: site test deps release debug lint format clean bench screenshots fuzz
.PHONY: test-deps theme dist dist-check install

## make site: install what building needs, build release, build the site from feeds.yml into Site/
## (the repository's feeds.yml is the sample planet: local snapshots, no network needed)
site: deps release
	$(FEEDSITE_RELEASE) build --config $(CONFIG) --output Site
	@echo ""
	@echo "The site is in $(CURDIR)/Site/"
	@echo "Open it:    xdg-open Site/index.html   (or open file://$(CURDIR)/Site/index.html in a browser)"
	@echo "Preview it: $(FEEDSITE_RELEASE) serve --no-build --config $(CONFIG)   then visit http://127.0.0.1:8000/"

## make test: install what is missing (the test tools too), then the whole test suite and the format lint
test: test-deps
	$(SWIFT) build --build-tests
	# The preview server's tests run on their own: they stream files through Swift tasks, which
	# the other tests' synchronous waits on child processes starved on 2 cores (minutes, not seconds).
	$(SWIFT) test --skip-build --skip FeedsiteServeTests
	$(SWIFT) test --skip-build --filter FeedsiteServeTests
	FEEDSITE=.build/debug/feedsite scripts/browser-proof.sh
	FEEDSITE=.build/debug/feedsite scripts/axe-check.sh
	FEEDSITE=.build/debug/feedsite scripts/reload-proof.sh
	FEEDSITE=.build/debug/feedsite scripts/validate-html.sh
	$(MAKE) lint

BENCH_N ?= 1000
BENCH_M ?= 30

## make bench: build release, then time feedsite cold / warm / 100 ms latency against a local
## nginx-served corpus (Benchmarks/README.md); not part of `make test`; under 10 minutes on 2 cores
bench: deps
	$(SWIFT) build -c release --product feedsite
	FEEDSITE=$(CURDIR)/$(FEEDSITE_RELEASE) Benchmarks/run.sh $(BENCH_N) $(BENCH_M)

FUZZ_SECONDS ?= 300

## make fuzz: build the libFuzzer targets (feed parser, sanitiser, HTML subset parser, state
## decoder, configuration loader, template engine, icon reader, Content-Encoding decompression, the
## JSON Feed value budget) with
## -sanitize=fuzzer,address into .build-fuzz and run each for FUZZ_SECONDS (300);
## not part of `make test` (Fuzz/README.md)
fuzz: deps
	FUZZ_SECONDS=$(FUZZ_SECONDS) Fuzz/run.sh

## make screenshots: index, feed and item page at 375/1280 px, light and dark, in .build/screenshots/
screenshots: deps
	$(SWIFT) build --product feedsite
	FEEDSITE=.build/debug/feedsite scripts/screenshots.sh

## deps: only what building and running feedsite needs; test-deps: also the test suite's tools
deps:
	@scripts/install-deps.sh build

test-deps:
	@scripts/install-deps.sh test

## make theme: compile Templates/ into the binary (Sources/FeedsiteKit/Render/BuiltInTheme.swift)
theme:
	scripts/embed-theme.py

## make dist: dist/feedsite-<version>-linux-<arch>.tar.gz (+ .sha256): a static binary, README,
## LICENSE, completions and man page (scripts/dist.sh)
dist: deps
	SWIFT=$(SWIFT) scripts/dist.sh

## make dist-check: unpack the tarball into an empty folder, then `init` and `build` there, offline
dist-check: dist
	scripts/dist-check.sh

## make install PREFIX=/usr/local: the release binary, its man page and bash/zsh/fish completions
PREFIX ?= /usr/local
install: deps release
	@mkdir -p .build/share
	$(FEEDSITE_RELEASE) --generate-completion-script bash > .build/share/feedsite.bash
	$(FEEDSITE_RELEASE) --generate-completion-script zsh > .build/share/_feedsite
	$(FEEDSITE_RELEASE) --generate-completion-script fish > .build/share/feedsite.fish
	scripts/manpage.py $(FEEDSITE_RELEASE) > .build/share/feedsite.1
	install -Dm755 $(FEEDSITE_RELEASE) $(DESTDIR)$(PREFIX)/bin/feedsite
	install -Dm644 .build/share/feedsite.1 $(DESTDIR)$(PREFIX)/share/man/man1/feedsite.1
	install -Dm644 .build/share/feedsite.bash $(DESTDIR)$(PREFIX)/share/bash-completion/completions/feedsite
	install -Dm644 .build/share/_feedsite $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_feedsite
	install -Dm644 .build/share/feedsite.fish $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/feedsite.fish

release:
	$(SWIFT) build -c release --product feedsite

debug:
	$(SWIFT) build --product feedsite

lint:
	$(SWIFT) format lint --strict --recursive Package.swift Sources Tests Fuzz Plugins

format:
	$(SWIFT) format --in-place --recursive Package.swift Sources Tests Fuzz Plugins

clean:
	rm -rf .build dist
