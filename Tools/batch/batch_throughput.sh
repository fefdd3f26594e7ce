#!/bin/sh
# Throughput and peak memory of `taskproc batch` on a synthetic export (issue 8).
#
#   Tools/batch/batch_throughput.sh [RECORDS] [JOBS] [WORKDIR]
#
# Builds taskproc in release mode, generates RECORDS small mixed records with make_export.py (default 100000;
# 2 s motion logs at 50 Hz, 0.25 s WAV files, 40-tap tables, 10 % broken, 20 % inside .zip archives), runs
# `taskproc batch --jobs JOBS` (default 2) under /usr/bin/time -v and prints records/s (wall clock and per CPU
# second) and the peak resident set size. The export and outputs go to WORKDIR (default /tmp/taskproc-batch-bench).
set -eu
RECORDS=${1:-100000}
JOBS=${2:-2}
WORK=${3:-/tmp/taskproc-batch-bench}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)

swift build -c release --package-path "$ROOT" --product taskproc >/dev/null
BIN=$(swift build -c release --package-path "$ROOT" --show-bin-path)/taskproc

mkdir -p "$WORK"
EXPORT="$WORK/export-$RECORDS"
if [ ! -d "$EXPORT" ]; then
    python3 "$ROOT/Tools/batch/make_export.py" "$EXPORT" --records "$RECORDS" --seed 8 --seconds 2
fi
OUT="$WORK/out-$RECORDS"
rm -rf "$OUT"
/usr/bin/time -v "$BIN" batch "$EXPORT" --out "$OUT" --jobs "$JOBS" --no-progress 2>"$WORK/time.txt" || true
grep -E "^taskproc batch|outputs in" "$WORK/time.txt"
python3 - "$WORK/time.txt" "$RECORDS" <<'EOF'
import re, sys
text = open(sys.argv[1]).read()
records = int(sys.argv[2])
def field(name):
    return re.search(re.escape(name) + r":\s*(.+)", text).group(1).strip()
wall = field("Elapsed (wall clock) time (h:mm:ss or m:ss)").split(":")
seconds = sum(float(p) * 60 ** i for i, p in enumerate(reversed(wall)))
cpu = float(field("User time (seconds)")) + float(field("System time (seconds)"))
rss = int(field("Maximum resident set size (kbytes)"))
print(f"records: {records}; wall {seconds:.1f} s = {records / seconds:.0f} records/s; "
      f"CPU {cpu:.1f} s = {records / cpu:.0f} records per CPU-second; CPU use {cpu / seconds * 100:.0f} %; "
      f"peak RSS {rss / 1024:.0f} MiB")
EOF
