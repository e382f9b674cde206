# feedsite — the two commands a new machine needs are `make site` and `make test`.
SWIFT ?= swift
FEEDSITE_RELEASE := .build/release/feedsite
CONFIG ?= feeds.yml

.PHONY: site test deps release debug lint format clean bench screenshots fuzz

## make site: install what is missing, build release, build the site from feeds.yml into Site/
site: deps release
	$(FEEDSITE_RELEASE) build --config $(CONFIG) --output Site --templates Templates
	@echo ""
	@echo "The site is in $(CURDIR)/Site/"
	@echo "Open it:    xdg-open Site/index.html   (or open file://$(CURDIR)/Site/index.html in a browser)"
	@echo "Preview it: $(FEEDSITE_RELEASE) serve --no-build --config $(CONFIG)   then visit http://127.0.0.1:8000/"

## make test: install what is missing, then the whole test suite and the format lint
test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build
	FEEDSITE=.build/debug/feedsite scripts/browser-proof.sh
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

## make fuzz: build the libFuzzer targets (feed parser, sanitiser, state decoder, configuration
## loader) with -sanitize=fuzzer,address into .build-fuzz and run each for FUZZ_SECONDS (300);
## not part of `make test` (Fuzz/README.md)
fuzz: deps
	FUZZ_SECONDS=$(FUZZ_SECONDS) Fuzz/run.sh

## make screenshots: index, feed and item page at 375/1280 px, light and dark, in .build/screenshots/
screenshots: deps
	$(SWIFT) build --product feedsite
	FEEDSITE=.build/debug/feedsite scripts/screenshots.sh

deps:
	@scripts/install-deps.sh

release:
	$(SWIFT) build -c release --product feedsite

debug:
	$(SWIFT) build --product feedsite

lint:
	$(SWIFT) format lint --strict --recursive Package.swift Sources Tests

format:
	$(SWIFT) format --in-place --recursive Package.swift Sources Tests

clean:
	rm -rf .build
