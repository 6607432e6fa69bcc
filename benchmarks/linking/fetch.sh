#!/usr/bin/env bash
# Materialises each system's code at its pinned commit into benchmarks/linking/systems/<name>/
# (git-ignored). Idempotent: a checkout already at its commit is left as it is.
#
#   bash benchmarks/linking/fetch.sh
#
# Clones from the bare mirror under $MIRRORS (default /work/.mirror/<owner>+<name>/repo) when
# there is one, else from GitHub.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
mirrors="${MIRRORS:-/work/.mirror}"

fetch() {  # name owner/repo commit
  local name=$1 repo=$2 commit=$3
  local dir="$here/systems/$name" mirror="$mirrors/${repo/\//+}/repo" src="https://github.com/$repo"
  # `git -C` on a folder that is no clone would answer for the enclosing repository: check .git.
  if [ -e "$dir/.git" ] && [ "$(git -C "$dir" rev-parse HEAD)" = "$commit" ]; then
    echo "$name: already at $commit"
    return
  fi
  rm -rf "$dir"
  [ -d "$mirror" ] && src="$mirror"
  echo "$name: cloning $src at $commit"
  git clone --quiet --no-checkout "$src" "$dir"
  # Jars and zips are left out of the checkout: the benchmark reads only Java, and the local
  # mirrors lack some of those binaries, so the tree is the same whichever place it came from.
  git -C "$dir" config core.sparseCheckout true
  printf '/*\n!*.jar\n!*.zip\n' > "$dir/.git/info/sparse-checkout"
  git -C "$dir" checkout --quiet --detach "$commit"
}

fetch teastore dmonsch/TeaStore 9205b5f7f8b235e2d61924314968a6251cc8b6f7
fetch cocome dmonsch/cocome-cloud-jee-platform-migration 2c92360425e01bccbbf83f57914b94750ea9b5ba
