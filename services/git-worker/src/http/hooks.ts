import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * pre-receive: refuses what the pusher may not do to protected branches (the list and the pusher's
 * rights come from the request's signed claims, through the environment). Runs before any ref moves.
 */
const PRE_RECEIVE = `#!/bin/sh
zero=0000000000000000000000000000000000000000
status=0
while read old new ref; do
  # A branch and a tag of the same name would let the tag stand in for the branch.
  case "$ref" in
    refs/tags/*) twin="refs/heads/\${ref#refs/tags/}" ;;
    refs/heads/*) twin="refs/tags/\${ref#refs/heads/}" ;;
    *) twin="" ;;
  esac
  if [ "$new" != "$zero" ] && [ -n "$twin" ] && git show-ref --verify --quiet -- "$twin"; then
    echo "GitLab: A branch and a tag may not share the name \${ref#refs/*/}."; status=1
  fi
  if printf '%s\\n' "$HUB_PROTECTED_REFS" | grep -qxF -- "$ref"; then
    # Masters push to protected branches; Developers only to those with developers_can_push.
    if [ "$HUB_PUSH_PROTECTED" != "1" ] && ! printf '%s\\n' "$HUB_DEV_PUSH_REFS" | grep -qxF -- "$ref"; then
      echo "GitLab: You are not allowed to push code to protected branches on this project."; status=1
    elif [ "$new" = "$zero" ]; then
      echo "GitLab: You are not allowed to delete protected branches."; status=1
    elif [ "$old" != "$zero" ] && ! git merge-base --is-ancestor "$old" "$new"; then
      echo "GitLab: You are not allowed to force push code to a protected branch on this project."; status=1
    fi
  fi
done
exit $status
`;

/** post-receive: writes the ref updates that happened to the request's log, for the push events. */
const POST_RECEIVE = `#!/bin/sh
if [ -n "$HUB_PUSH_LOG" ]; then cat >> "$HUB_PUSH_LOG"; else cat > /dev/null; fi
`;

/** Writes the hooks into `dir` (pointed at with core.hooksPath for pushes through the worker only). */
export function installHooks(dir: string): string {
  mkdirSync(dir, { recursive: true });
  for (const [name, body] of [
    ['pre-receive', PRE_RECEIVE],
    ['post-receive', POST_RECEIVE],
  ]) {
    writeFileSync(join(dir, name), body);
    chmodSync(join(dir, name), 0o755);
  }
  return dir;
}
