# taskproc — the two commands a fresh Debian machine with Swift 6.3 needs:
#   make run    install missing system packages, build in release mode, analyse generated sample data
#   make test   install missing system packages, run the whole test suite
SWIFT      ?= swift
APT_PKGS   := libfftw3-dev libsndfile1-dev zlib1g-dev pkg-config ffmpeg
# Only the test suite needs these: a venv for the FHIR validator, a headless browser for the HTML report.
TEST_PKGS  := python3-venv chromium
SAMPLES    := out/samples
BIN        := .build/release/taskproc

.PHONY: run test deps test-deps install-missing build bench compare clean lint mutants

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
	$(SWIFT) build -c release --product taskproc

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
	python3 Benchmarks/compare/compare.py

lint:
	$(SWIFT) format lint --recursive Sources Tests

clean:
	rm -rf .build out
