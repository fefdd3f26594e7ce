#!/usr/bin/env bash
# make cluster-test: the Slurm array job of docs/batch.md on a real one-node Slurm cluster on localhost.
#
# Starts munged, slurmctld and slurmd with a minimal slurm.conf generated into a temporary folder (own ports, own
# munge socket, no cgroups: proctrack/linuxproc, task/none), generates an export with
# Tools/batch/make_export.py, submits the job script of docs/batch.md "Sharding: beyond one machine" *as written
# there* (only the paths are replaced, and --array on the sbatch command line sets the shard count), waits, runs
# `taskproc merge`, and checks that the merged outputs equal a single-process `taskproc batch` run byte for byte
# (the JSONL and CSV files; the SQLite tables except run_log, row by row).
#
# Usage: Tests/Cluster/slurm-test.sh TASKPROC_BINARY   (environment: RECORDS=200, SHARDS=4)
# Exit status: 0 pass, 1 fail, 77 Slurm cannot run here (the reason is printed).
set -euo pipefail
cd "$(dirname "$0")/../.."
binary="$(realpath "${1:?usage: slurm-test.sh TASKPROC_BINARY}")"
records="${RECORDS:-200}"
shards="${SHARDS:-4}"
started=$SECONDS

work="$(mktemp -d /tmp/taskproc-slurm.XXXXXX)"
chmod 755 "$work"
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do
        for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    done
    rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "cluster-test: FAIL: $*" >&2; exit 1; }
# Slurm could not run here: say why (with the daemons' last log lines) and exit 77.
cannot_run() {
    echo "cluster-test: SLURM CANNOT RUN HERE: $*" >&2
    for log in "$work"/*.log; do [ -f "$log" ] && { echo "--- $log" >&2; tail -15 "$log" >&2; }; done
    exit 77
}
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

[ "$(id -u)" -eq 0 ] || cannot_run "slurmd must run as root (it starts each job as its submitting user); run as root"
for tool in munged slurmctld slurmd sbatch squeue scontrol sinfo; do
    command -v "$tool" >/dev/null || cannot_run "$tool is not installed (make cluster-test installs slurm-wlm and munge)"
done

# munge: an own key and socket, so that a munged already running on the machine is left alone.
mkdir -p "$work/munge" && chmod 700 "$work/munge"
dd if=/dev/urandom of="$work/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$work/munge/munge.key"
munged --force --key-file="$work/munge/munge.key" --socket="$work/munge/munge.socket" \
    --pid-file="$work/munge/munged.pid" --log-file="$work/munged.log" --seed-file="$work/munge/munged.seed" \
    || cannot_run "munged did not start"
for _ in $(seq 50); do [ -s "$work/munge/munged.pid" ] && break; sleep 0.1; done
pids+=("$(cat "$work/munge/munged.pid")")
munge --socket="$work/munge/munge.socket" -n | unmunge --socket="$work/munge/munge.socket" >/dev/null \
    || cannot_run "munge credentials cannot be encoded and decoded"

# slurm.conf for one node, this machine, as root (the only user a fresh CI machine has).
node=taskproc-node
cpus="$(nproc)"
memory="$(slurmd -C | sed -n 's/.*RealMemory=\([0-9]*\).*/\1/p' | head -1)"
mkdir -p "$work/state" "$work/spool"
export SLURM_CONF="$work/slurm.conf"
cat >"$SLURM_CONF" <<EOF
ClusterName=taskproc-test
SlurmctldHost=$(hostname -s)(127.0.0.1)
SlurmctldPort=$(free_port)
SlurmdPort=$(free_port)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$work/munge/munge.socket
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SwitchType=switch/none
MpiDefault=none
ReturnToService=2
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MaxArraySize=1001
NodeName=$node NodeHostname=$(hostname) NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$memory State=UNKNOWN
PartitionName=test Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF

slurmctld -i || cannot_run "slurmctld did not start"
for _ in $(seq 100); do [ -s "$work/slurmctld.pid" ] && break; sleep 0.1; done
[ -s "$work/slurmctld.pid" ] || cannot_run "slurmctld wrote no pid file"
pids+=("$(cat "$work/slurmctld.pid")")
slurmd -N "$node" || cannot_run "slurmd did not start"
for _ in $(seq 100); do [ -s "$work/slurmd.pid" ] && break; sleep 0.1; done
[ -s "$work/slurmd.pid" ] || cannot_run "slurmd wrote no pid file"
pids+=("$(cat "$work/slurmd.pid")")
state=""
for _ in $(seq 150); do
    state="$(sinfo -h -N -o '%T' 2>/dev/null | head -1)"
    [ "$state" = idle ] && break
    sleep 0.2
done
[ "$state" = idle ] || cannot_run "the node never became idle (state '${state:-none}')"
echo "cluster-test: one-node cluster up ($cpus CPUs) after $((SECONDS - started)) s"

# The export and the documented array job, with its paths pointed at the temporary folder.
python3 Tools/batch/make_export.py "$work/export" --records "$records" --seconds 2 >/dev/null
awk '/^Slurm array job/ { found = 1 } found && /^```sh$/ { inside = 1; next } inside && /^```$/ { exit } inside' \
    docs/batch.md >"$work/readme-job.sh"
grep -q 'taskproc batch' "$work/readme-job.sh" || fail "no Slurm job script found in docs/batch.md"
sed -e "s|/data/export|$work/export|g" -e "s|/scratch/study|$work/scratch|g" -e "s|/data/results|$work/results|g" \
    -e "s|^taskproc |$binary |" "$work/readme-job.sh" >"$work/batch.sh"
mkdir -p "$work/scratch" "$work/logs"
submitted=$SECONDS
cpus_per_task=$(( cpus < 2 ? cpus : 2 ))   # the documented job asks for 2; a 1-CPU machine runs them on 1
job="$(sbatch --parsable --array="1-$shards" --cpus-per-task="$cpus_per_task" --output="$work/logs/%A_%a.out" \
    --chdir="$work" "$work/batch.sh")" || fail "sbatch refused the documented job script"
echo "cluster-test: submitted array job $job"
# squeue every 0.2 s (sbatch --wait polls at up to 10 s intervals); 10 minutes at most.
for _ in $(seq 3000); do
    [ -z "$(squeue -h -j "$job" 2>/dev/null)" ] && break
    sleep 0.2
done
[ -z "$(squeue -h -j "$job")" ] || fail "the array job did not finish in 10 minutes"
# No accounting daemon, so no sacct: each task's exit status is in the controller's log.
if grep -E "_job_complete: JobId=${job}_[0-9]+.*(WEXITSTATUS [1-9]|WTERMSIG)" "$work/slurmctld.log"; then
    cat "$work"/logs/*.out >&2 || true
    fail "array tasks failed (above)"
fi
echo "cluster-test: $shards array tasks finished in $((SECONDS - submitted)) s"
for k in $(seq "$shards"); do [ -d "$work/scratch/shard-$k" ] || fail "shard $k wrote no output folder"; done

"$binary" merge "$work"/scratch/shard-* --out "$work/merged" || fail "taskproc merge failed"
status=0
"$binary" batch "$work/export" --out "$work/single" --no-progress --quiet || status=$?
[ "$status" -eq 0 ] || [ "$status" -eq 2 ] || fail "the single-process run exited $status"

# Byte for byte: the same JSONL and CSV files, and the same SQLite rows (run_log differs by design: it lists the
# shards' events).
files="$(cd "$work/single" && ls -1 ./*.jsonl ./*.csv)"
[ "$files" = "$(cd "$work/merged" && ls -1 ./*.jsonl ./*.csv)" ] || fail "the merged folder holds other files"
for f in $files; do cmp "$work/single/$f" "$work/merged/$f" || fail "$f differs"; done
python3 - "$work/single/taskproc.sqlite" "$work/merged/taskproc.sqlite" <<'EOF' || fail "the SQLite tables differ"
import sqlite3, sys
def dump(path):
    db = sqlite3.connect(path)
    names = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name != 'run_log' ORDER BY name")]
    return {n: db.execute(f'SELECT * FROM "{n}" ORDER BY rowid').fetchall() for n in names}
a, b = dump(sys.argv[1]), dump(sys.argv[2])
sys.exit(0 if a == b and a else 1)
EOF
lines="$(wc -l <"$work/merged/results.jsonl")"
echo "cluster-test: ok ($((SECONDS - started)) s): $records records in $shards Slurm array tasks, merged =" \
    "single run byte for byte ($(echo $files | wc -w) files, $lines results, SQLite tables)"
