#!/bin/sh
# usage: run.sh candidates.txt   (lines: owner/repo <root path> [short]; '#' comments)
# extracts each candidate (extract.mjs) then dereferences it (deref.mjs, 120 s bound)
here=$(dirname "$0")
grep -v '^\s*#' "$1" | while read -r repo p short; do
  [ -z "$repo" ] && continue
  out=$(node "$here/extract.mjs" "$repo" "$p" $short) || { echo "SKIP $repo $p: $out"; continue; }
  id=$(printf '%s' "$out" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).id))')
  timeout 120 node --max-old-space-size=3000 "$here/deref.mjs" "$id" || echo "DEREF-TIMEOUT $id"
  printf '%s\n' "$out" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const r=JSON.parse(s);console.log("OK",r.id,r.version,r.operations,r.files,r.split?"split:"+r.folder+":"+r.copied:"", JSON.stringify(r.title))})'
done
