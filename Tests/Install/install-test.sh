#!/usr/bin/env bash
# `make install` into a fresh temporary prefix: every file is installed, the binary runs, the man page renders
# without warnings, the completion scripts parse; then `make uninstall` leaves no file behind.
# Arguments are passed to make (e.g. CONFIG=debug). Run from the repository root: `make install-test`.
set -euo pipefail
cd "$(dirname "$0")/../.."
fail() { echo "install-test: FAIL: $*" >&2; exit 1; }

prefix="$(mktemp -d)"
trap 'rm -rf "$prefix"' EXIT
started=$SECONDS
make --no-print-directory install PREFIX="$prefix" "$@"

files=(bin/taskproc share/man/man1/taskproc.1 share/bash-completion/completions/taskproc
       share/zsh/site-functions/_taskproc share/fish/vendor_completions.d/taskproc.fish)
for f in "${files[@]}"; do
    [ -s "$prefix/$f" ] || fail "$prefix/$f is missing or empty"
done
[ -x "$prefix/bin/taskproc" ] || fail "bin/taskproc is not executable"
installed="$(cd "$prefix" && find . -type f | sed 's|^\./||' | sort)"
expected="$(printf '%s\n' "${files[@]}" | sort)"
[ "$installed" = "$expected" ] || fail "installed files differ from the list:"$'\n'"$installed"

"$prefix/bin/taskproc" --version | grep -q '^taskproc ' || fail "the installed binary does not run"

# generate-manual drops non-ASCII characters ("iPhone (−23.3)" would lose its sign): the help texts must be ASCII.
if "$prefix/bin/taskproc" --experimental-dump-help | LC_ALL=C grep -n '[^ -~]'; then
    fail "the help texts above hold non-ASCII characters, which the man page would lose"
fi

# The man page renders (man -l), with no troff warnings, and documents every command and the common flags.
warnings="$(MANWIDTH=100 man --warnings -l "$prefix/share/man/man1/taskproc.1" 2>&1 >/dev/null)"
[ -z "$warnings" ] || fail "man -l warns: $warnings"
page="$(MANWIDTH=1000 man -E ascii -l "$prefix/share/man/man1/taskproc.1" 2>/dev/null)"
for word in NAME SYNOPSIS DESCRIPTION analyze inspect batch merge synth simulate report --quiet --verbose \
    --no-progress "--generate-completion-script bash|zsh|fish" "iPhone (-23.3)"; do
    grep -qe "$word" <<<"$page" || fail "the rendered man page lacks '$word'"
done

# The completion scripts parse, and bash's registers a completion for taskproc.
bash -n "$prefix/share/bash-completion/completions/taskproc" || fail "bash -n: the bash completion does not parse"
bash -c "source '$prefix/share/bash-completion/completions/taskproc' && complete -p taskproc" >/dev/null \
    || fail "the bash completion registers no completion for taskproc"
if command -v zsh >/dev/null; then zsh -n "$prefix/share/zsh/site-functions/_taskproc" || fail "zsh -n"; fi
if command -v fish >/dev/null; then fish --no-execute "$prefix/share/fish/vendor_completions.d/taskproc.fish" || fail "fish -n"; fi
grep -q 'compdef\|#compdef' "$prefix/share/zsh/site-functions/_taskproc" || fail "the zsh completion has no #compdef"
grep -q "^complete -c 'taskproc'" "$prefix/share/fish/vendor_completions.d/taskproc.fish" || fail "the fish completion completes nothing"

make --no-print-directory uninstall PREFIX="$prefix" "$@"
left="$(find "$prefix" -type f -o -type l)"
[ -z "$left" ] || fail "make uninstall left files behind: $left"
# DESTDIR (packaging): the same files under DESTDIR/PREFIX, removed by uninstall with the same DESTDIR.
make --no-print-directory install DESTDIR="$prefix/stage" PREFIX=/usr "$@" >/dev/null
for f in "${files[@]}"; do [ -s "$prefix/stage/usr/$f" ] || fail "DESTDIR: $prefix/stage/usr/$f is missing"; done
make --no-print-directory uninstall DESTDIR="$prefix/stage" PREFIX=/usr "$@" >/dev/null
left="$(find "$prefix" -type f -o -type l)"
[ -z "$left" ] || fail "make uninstall DESTDIR=… left files behind: $left"

echo "install-test: ok ($((SECONDS - started)) s): ${#files[@]} files installed into a temporary prefix, man page rendered, completions parsed, all removed"
