# taskproc — the two commands a fresh Debian machine with Swift 6.3 needs:
#   make run    install missing system packages, build in release mode, analyse generated sample data
#   make test   install missing system packages, run the whole test suite
# and the usual Unix ones:
#   make install PREFIX=/usr/local    the binary, its man page and bash/zsh/fish completions (DESTDIR for staging)
#   make uninstall PREFIX=/usr/local  removes exactly those files
SWIFT      ?= swift
APT_PKGS   := libfftw3-dev libsndfile1-dev zlib1g-dev pkg-config ffmpeg
# Only the test suite needs these: a venv for the FHIR validator, a headless browser for the HTML report, man to
# render the installed man page (make install-test).
TEST_PKGS  := python3-venv chromium man-db groff-base
SAMPLES    := out/samples
# The build configuration `build`, `run` and `install` use (CI's install-test reuses the debug build of `make test`).
CONFIG     ?= release
BIN        := .build/$(CONFIG)/taskproc

# make install: where the files go. DESTDIR is prepended (packaging); PREFIX is what the files are installed as.
PREFIX     ?= /usr/local
DESTDIR    ?=
GENERATED  := .build/generated/$(CONFIG)
MAN_PAGE   := share/man/man1/taskproc.1
BASH_COMP  := share/bash-completion/completions/taskproc
ZSH_COMP   := share/zsh/site-functions/_taskproc
FISH_COMP  := share/fish/vendor_completions.d/taskproc.fish
INSTALLED  := bin/taskproc $(MAN_PAGE) $(BASH_COMP) $(ZSH_COMP) $(FISH_COMP)

.PHONY: run test deps test-deps install-missing build bench compare clean lint mutants fuzz fuzz-build fuzz-smoke \
	man completions install uninstall install-test cluster-test

deps:
	@$(MAKE) --no-print-directory install-missing PKGS="$(APT_PKGS)"

test-deps:
	@$(MAKE) --no-print-directory install-missing PKGS="$(APT_PKGS) $(TEST_PKGS)"

install-missing:
	@missing=""; for p in $(PKGS); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "Installing system packages:$$missing"; \
	  SUDO=""; [ "$$(id -u)" -ne 0 ] && SUDO=sudo; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; \
	fi

build: deps
	$(SWIFT) build -c $(CONFIG) --product taskproc

# The man page, generated from the command-line definitions by swift-argument-parser's generate-manual plugin
# (it builds the package in $(CONFIG) mode, then runs `taskproc --experimental-dump-help`; no network needed).
# Two fixes to its output: a blank line (a paragraph break in a discussion) becomes mdoc's .Pp, which man wants;
# and it drops every non-ASCII character, so the help texts are ASCII (make install-test checks both). Dated
# by the last commit, so the page does not change from day to day.
man: build
	$(SWIFT) package plugin generate-manual --configuration $(CONFIG) --date "$$(git log -1 --format=%cs 2>/dev/null || date +%F)"
	@mkdir -p $(GENERATED)
	sed 's/^$$/.Pp/' .build/plugins/GenerateManual/outputs/taskproc/taskproc.1 > $(GENERATED)/taskproc.1

# Shell completions, as the binary prints them (`taskproc --generate-completion-script bash|zsh|fish`).
completions: build
	@mkdir -p $(GENERATED)
	$(BIN) --generate-completion-script bash > $(GENERATED)/taskproc.bash
	$(BIN) --generate-completion-script zsh > $(GENERATED)/_taskproc
	$(BIN) --generate-completion-script fish > $(GENERATED)/taskproc.fish

install: build man completions
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
	  $(DESTDIR)$(PREFIX)/share/bash-completion/completions $(DESTDIR)$(PREFIX)/share/zsh/site-functions \
	  $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/taskproc
	install -m 644 $(GENERATED)/taskproc.1 $(DESTDIR)$(PREFIX)/$(MAN_PAGE)
	install -m 644 $(GENERATED)/taskproc.bash $(DESTDIR)$(PREFIX)/$(BASH_COMP)
	install -m 644 $(GENERATED)/_taskproc $(DESTDIR)$(PREFIX)/$(ZSH_COMP)
	install -m 644 $(GENERATED)/taskproc.fish $(DESTDIR)$(PREFIX)/$(FISH_COMP)

# Removes the files `install` wrote, nothing else (folders stay: other packages share them).
uninstall:
	rm -f $(addprefix $(DESTDIR)$(PREFIX)/,$(INSTALLED))

# The Slurm array job of docs/batch.md on a real one-node cluster (munged, slurmctld, slurmd on localhost, started and
# stopped by the script), merged, compared byte for byte with one process. RECORDS=200 SHARDS=4 by default.
# Exit 77 with the reason when Slurm cannot run on the machine. CI: `make cluster-test CONFIG=debug`.
cluster-test: build
	@$(MAKE) --no-print-directory install-missing PKGS="slurm-wlm munge"
	Tests/Cluster/slurm-test.sh $(BIN)

# install into a fresh temporary prefix, check every file (the man page renders, the completions parse), uninstall
# and check nothing is left. CI: `make install-test CONFIG=debug`.
install-test: test-deps
	Tests/Install/install-test.sh CONFIG=$(CONFIG)

# The main job on sample data the project generates: a calibration tone and a noisy stereo recording.
run: build
	@mkdir -p $(SAMPLES)
	$(BIN) synth $(SAMPLES)/tone-1kHz-48k.wav --signal sine --frequency 1000 --amplitude 0.5 --duration 5 --force
	$(BIN) synth $(SAMPLES)/noise-stereo-44k.flac --signal noise --amplitude 0.1 --duration 5 --sample-rate 44100 --channels 2 --file-format flac16 --force
	$(BIN) analyze $(SAMPLES)/tone-1kHz-48k.wav --format table
	$(BIN) analyze $(SAMPLES)/noise-stereo-44k.flac --format json
	@if [ -d ../shared/data/mpower-samples ]; then \
	  echo "$(BIN) inspect ../shared/data/mpower-samples --format table"; \
	  $(BIN) inspect ../shared/data/mpower-samples --format table; \
	  echo "$(BIN) analyze ../shared/data/mpower-samples/mhealthtools_tap_data.csv --format csv"; \
	  $(BIN) analyze ../shared/data/mpower-samples/mhealthtools_tap_data.csv --format csv; \
	  echo "$(BIN) analyze ../shared/data/oxford-step-counter/user1_hand_1506421989895.csv.gz --format table"; \
	  $(BIN) analyze ../shared/data/oxford-step-counter/user1_hand_1506421989895.csv.gz --format table; \
	fi

test: test-deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --parallel

# Mutation testing: plant each bug of Tests/Mutants/mutants.tsv in a copy of the tree, run the tests that should
# catch it, print the survivors (see README, "Mutation testing"). MUTANTS=M01,M07 runs some of them.
mutants: test-deps
	python3 Tests/Mutants/mutants.py $(if $(MUTANTS),--only $(MUTANTS))

# Performance lives here, not in the tests.
bench: deps
	cd Benchmarks && $(SWIFT) package --allow-writing-to-package-directory benchmark

compare: build
	python3 Tools/peers/compare.py

# libFuzzer (see docs/fuzzing.md). One target at a time, at the lowest priority; FUZZ_SECONDS per target (0 = until
# stopped), FUZZ_TARGETS=FuzzJSON,FuzzZip for some. New inputs go to Fuzz/.work/<target>/corpus, crashes, hangs
# and leaks to Fuzz/.work/<target>/ (crash-*, timeout-*, leak-*, oom-*); the committed corpus is only read.
# Each target runs in processes of at most FUZZ_SEGMENT seconds that end by -max_total_time: libFuzzer stops its
# per-input leak check for good after 1,000 inputs that allocate more than they free without a reportable leak, and
# a normal exit (unlike Ctrl-C) runs LeakSanitizer's final check over the whole heap.
FUZZ_SECONDS ?= 60
FUZZ_SEGMENT ?= 1500
FUZZ_ALL     := $(sort $(filter-out FuzzSupport,$(notdir $(wildcard Fuzz/Sources/Fuzz*))))
# Defined before FUZZ_RUN, whose := expands it at once (FUZZ_TARGETS=A,B was passed on as one name before).
comma        := ,
FUZZ_RUN     := $(if $(FUZZ_TARGETS),$(subst $(comma), ,$(FUZZ_TARGETS)),$(FUZZ_ALL))
# The configuration of fuzz-build and fuzz: release, for throughput (fuzz-smoke builds debug, below).
FUZZ_CONFIG  ?= release
FUZZ_BIN     := Fuzz/.build/$(FUZZ_CONFIG)
FUZZ_OPTIONS := -timeout=10 -rss_limit_mb=2048 -max_len=16384 -print_final_stats=1 -print_funcs=0
# The targets that read files write them to TMPDIR: a memory file system when there is one. Swift's own
# backtracer is off so that a trap reaches libFuzzer's handler (its memory reads upset ASan).
FUZZ_TMPDIR  ?= $(if $(wildcard /dev/shm),/dev/shm,/tmp)
# Leaks inside system libraries taskproc cannot fix, each with its evidence.
FUZZ_LSAN    := suppressions=$(CURDIR)/Fuzz/lsan-suppressions.txt
# --sanitize instruments the C targets and links the runtimes; swiftc keeps only its *last* -sanitize= flag, so the
# combined one must come last or the Swift code gets ASan without coverage. No dead stripping: a precaution for the
# coverage sections (see docs/fuzzing.md). -enable-testing: the targets reach internal entry points (@testable import).
FUZZ_BUILD_FLAGS := --sanitize=fuzzer --sanitize=address -Xswiftc -sanitize=fuzzer,address \
	-Xswiftc -enable-testing --disable-dead-strip

fuzz-build: deps
	$(SWIFT) build -c $(FUZZ_CONFIG) --package-path Fuzz --scratch-path Fuzz/.build $(FUZZ_BUILD_FLAGS)

fuzz: fuzz-build
	@for t in $(FUZZ_RUN); do \
	  mkdir -p Fuzz/.work/$$t/corpus Fuzz/Corpus/$$t; \
	  left=$(FUZZ_SECONDS); \
	  while :; do \
	    s=$(FUZZ_SEGMENT); if [ $$left -gt 0 ] && [ $$left -lt $$s ]; then s=$$left; fi; \
	    echo "== $$t: $$s s"; \
	    TMPDIR=$(FUZZ_TMPDIR) SWIFT_BACKTRACE=enable=no LSAN_OPTIONS=$(FUZZ_LSAN) nice -n 19 $(FUZZ_BIN)/$$t Fuzz/.work/$$t/corpus Fuzz/Corpus/$$t $(FUZZ_OPTIONS) \
	      -max_total_time=$$s -artifact_prefix=Fuzz/.work/$$t/ || exit 1; \
	    if [ $$left -gt 0 ]; then left=$$((left - s)); [ $$left -gt 0 ] || break; fi; \
	  done; \
	done

# Every target over the committed corpus once (each input run one time, no mutation): the CI step. It runs each
# input once, so it builds the targets in debug (FUZZ_SMOKE_CONFIG): in fresh-clone CI on 2 cores the phase took
# 143-166 s (build 100-110 s) against release's 288 s (build 272 s), the slowest input still under 1 s of the 10-s
# timeout, and ASan without optimisation checks every access the source makes. FUZZ_SMOKE_CONFIG=release smokes the
# fuzzing build.
FUZZ_SMOKE_CONFIG ?= debug

fuzz-smoke:
	@$(MAKE) --no-print-directory fuzz-build FUZZ_CONFIG=$(FUZZ_SMOKE_CONFIG)
	@mkdir -p Fuzz/.work; for t in $(FUZZ_RUN); do \
	  printf '%-18s ' $$t; \
	  TMPDIR=$(FUZZ_TMPDIR) SWIFT_BACKTRACE=enable=no LSAN_OPTIONS=$(FUZZ_LSAN) Fuzz/.build/$(FUZZ_SMOKE_CONFIG)/$$t $(FUZZ_OPTIONS) -runs=0 -artifact_prefix=Fuzz/.work/ Fuzz/Corpus/$$t 2>Fuzz/.build/smoke-$$t.log \
	    && grep -m1 -o 'INITED.*' Fuzz/.build/smoke-$$t.log || { tail -40 Fuzz/.build/smoke-$$t.log; exit 1; }; \
	done

# swift format lint (.swift-format) over Sources and Tests. The tree is not yet clean, so the lint is a ratchet:
# it fails when the warnings outnumber LINT_CEILING (.ci/lint-ceiling, the count when it was last lowered); fix
# warnings, then lower the ceiling to the new count.
LINT_CEILING ?= $(shell cat .ci/lint-ceiling)
lint:
	@mkdir -p .build; $(SWIFT) format lint --recursive Sources Tests 2> .build/lint.log || true; \
	n=$$(grep -c 'warning:' .build/lint.log || true); \
	echo "make lint: $$n warnings (ceiling $(LINT_CEILING)); the list: .build/lint.log"; \
	if [ "$$n" -gt "$(LINT_CEILING)" ]; then grep 'warning:' .build/lint.log | tail -20; \
	  echo "make lint: $$n warnings, more than the ceiling $(LINT_CEILING) (.ci/lint-ceiling)"; exit 1; fi

clean:
	rm -rf .build out
