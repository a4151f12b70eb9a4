# Usage: zsh -f completion-capture.zsh FPATH_DIR 'command line' [source]
#
# Prints, one a line, every match zsh's completion system adds for the command line: an
# interactive zsh runs in a pseudo-terminal (zpty) with compinit and FPATH_DIR on $fpath, the line
# is typed followed by Tab, and compadd is wrapped to print its matches. `_message` prints nothing,
# so a value without suggestions shows as no matches. Used by completion.test.ts.
zmodload zsh/zpty || exit 3
zpty z zsh -f -i
zpty -w z "PS1=''; RPS1=''; unsetopt zle_bracketed_paste 2>/dev/null"
if [[ $3 == source ]]; then
  # The other way to install it: sourced after compinit (it registers itself with compdef).
  zpty -w z "autoload -U compinit; compinit -u -D; source ${(q)1}/_loanctl"
else
  zpty -w z "fpath=(${(q)1} \$fpath); autoload -U compinit; compinit -u -D"
fi
zpty -w z "compadd() { if [[ \${@[1,(i)(-|--)]} == *-(O|A|D)\\ * ]]; then builtin compadd \"\$@\"; return; fi; local -a __hits; builtin compadd -A __hits \"\$@\"; (( \$#__hits )) || return 1; print -r -l -- '' \"<hit>\"\${^__hits}; builtin compadd \"\$@\"; }"
zpty -w z "_message() { :; }"
zpty -w z "zstyle ':completion:*' list-prompt ''; zstyle ':completion:*' menu no"
zpty -w z "comp-done() { print -r -- '' '<done>'; }; zle -N comp-done; bindkey '^X' comp-done"
# Split so that the echo of the typed command does not match.
zpty -w z "print -r -- '<rea''dy>'"
local line
while zpty -r z line; do [[ $line == *'<ready>'* ]] && break; done
zpty -w -n z "$2"$'\t\x18'
while zpty -r z line; do
  [[ $line == *'<done>'* ]] && break
  [[ $line == *'<hit>'* ]] && print -r -- "${${line##*<hit>}%%$'\r'}"
done
zpty -d z
