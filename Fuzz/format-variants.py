#!/usr/bin/env python3
"""Writes, for each input of a target's committed corpus, the same input selecting each other output format.

The targets that analyse render every result in one format per input, which a fuzz byte picks (docs/fuzzing.md,
"Harness speed"): for the file targets the first byte divided by the number of file names (the name it picks
stays the same), for the processor targets one byte after everything else they read (0, JSON, past the end). Most
committed inputs select format 0, so `make fuzz-smoke` would render little else. Merge the variants back with
-merge=1, which keeps every committed input and adds only those with new coverage:

    python3 Fuzz/format-variants.py Fuzz/Corpus Fuzz/.work/variants FuzzWalking FuzzZip ...
    Fuzz/.build/release/FuzzZip -merge=1 -max_len=16384 Fuzz/Corpus/FuzzZip Fuzz/.work/variants/FuzzZip
"""
import os
import sys

FORMATS = 6  # OutputFormat.allCases: json, table, csv, researchkit, mork, fhir
NAMES = {'FuzzRecorderLog': 8, 'FuzzMPower': 8, 'FuzzMyDataHelps': 5, 'FuzzCSV': 5}  # file names per target
TRAILING = ['FuzzWalking', 'FuzzTapping', 'FuzzAudiometry', 'FuzzSPLMeter', 'FuzzSoundLevel']


def first_byte_variant(target, data, fmt):
    """The input with a first byte that keeps every other choice it makes and selects format `fmt`."""
    if not data:
        return None
    b = data[0]
    for c in range(256):
        if target in NAMES:
            n = NAMES[target]
            ok = c % n == b % n and (c // n) % FORMATS == fmt
        elif target == 'FuzzAudio':  # 11 extensions; >= 128 accepts truncated files
            ok = c % 11 == b % 11 and (c >= 128) == (b >= 128) and (c // 11) % FORMATS == fmt
        elif target == 'FuzzResearchKit':  # even: one result file, odd: a task folder
            ok = c % 2 == b % 2 and (c // 2) % FORMATS == fmt
        elif target == 'FuzzGzip':  # < 128: in memory, nothing rendered
            if b < 128:
                return None
            ok = c >= 128 and c % 4 == b % 4 and (c // 4) % FORMATS == fmt
        elif target == 'FuzzZip':  # even: the archive API, nothing rendered
            if b % 2 == 0:
                return None
            ok = c % 2 == 1 and (c // 2) % FORMATS == fmt
        else:
            raise SystemExit(f'{target}: not a target that renders')
        if ok:
            return bytes([c]) + data[1:]
    return None


def main():
    corpus, out, targets = sys.argv[1], sys.argv[2], sys.argv[3:]
    for target in targets:
        folder = os.path.join(out, target)
        os.makedirs(folder, exist_ok=True)
        written = 0
        for name in sorted(os.listdir(os.path.join(corpus, target))):
            with open(os.path.join(corpus, target, name), 'rb') as f:
                data = f.read()
            for fmt in range(1, FORMATS):
                # An input that ends before the format byte reads it from the appended byte; one that does not
                # keeps its format, and the merge drops the copy.
                variant = data + bytes([fmt]) if target in TRAILING else first_byte_variant(target, data, fmt)
                if variant is not None:
                    with open(os.path.join(folder, f'{name}-f{fmt}'), 'wb') as f:
                        f.write(variant)
                    written += 1
        print(target, written)


if __name__ == '__main__':
    main()
