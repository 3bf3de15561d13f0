#!/usr/bin/env bash
# Archives the audit log's monthly partitions that end before a given month, on PostgreSQL, as the
# database OWNER role (never the application role, which cannot do it). README "Retention".
#
#   scripts/audit-archive.sh BEFORE_MONTH OUT_DIR --trust PUBLIC_KEY [--tsa-ca TSA_ROOT]
#
# BEFORE_MONTH  YYYY-MM: every partition wholly before the first of that month (UTC) is archived;
#               never the current month.
# OUT_DIR       where the archive file (JSON Lines, the export format) and its SHA-256 go.
# PUBLIC_KEY    the checkpoint-signing key's verifier key (quaestor.audit+…+…, or a file holding it), from a
#               copy kept outside the database, as for any offline verification.
# TSA_ROOT      with anchored checkpoints: the time-stamping authority's root certificate (PEM), so that the
#               checkpoints' time-stamps in the archive are checked too.
# Connection: libpq's variables (PGHOST, PGPORT, PGDATABASE, PGUSER = the owner, PGPASSWORD).
#
# Steps: export the partitions' records with the keys, checkpoints and earlier markers they need;
# verify the file with the offline verifier (it must start at seq 1 or right after an earlier marker
# and end at a signed checkpoint); then, in one transaction, write an archive marker per chain
# (last archived seq and hash, which a signed checkpoint must vouch for) and detach and drop the partitions.
# It refuses the current month and a month whose archive file exists before it writes anything. If anything fails,
# nothing is dropped. The retention job (dev.quaestor.retention.RetentionJob, a CronJob in deploy/) does this on a
# schedule, one month at a time, keeping the records under legal holds first.
set -euo pipefail

usage() { echo "usage: $0 BEFORE_MONTH(YYYY-MM) OUT_DIR --trust PUBLIC_KEY [--tsa-ca TSA_ROOT]" >&2; exit 2; }
[[ ($# -eq 4 || ($# -eq 6 && $5 == --tsa-ca)) && $3 == --trust ]] || usage
month=$1 out=$2 key=$4
tsa=()
[[ $# -eq 6 ]] && tsa=(--tsa-ca "$6")
[[ $month =~ ^[0-9]{4}-(0[1-9]|1[0-2])$ ]] || usage
before="${month}-01T00:00:00Z"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
psql=(psql -X -q -At -v ON_ERROR_STOP=1)

# Every refusal comes before anything is written: the current month (or a later one), and an archive already made.
future=$("${psql[@]}" -c "SELECT '$before'::timestamptz > date_trunc('month', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'")
if [[ $future == t ]]; then
  echo "refusing to archive the current month or later (before $before); nothing was written" >&2
  exit 1
fi
file="$out/audit-archive-before-$month.jsonl"
if [[ -e $file ]]; then
  echo "refusing: $file exists, the months before $month were already archived; nothing was written" >&2
  exit 1
fi
partitions=$("${psql[@]}" -c "SELECT string_agg(p::text, ' ') FROM quaestor_audit_archivable('$before') p")
if [[ -z $partitions ]]; then
  echo "nothing to archive before $before"
  exit 0
fi
verifier="$here/../src/verifier/target/quaestor-verify.jar"
if [[ ! -f $verifier ]]; then
  (cd "$here/.." && ./mvnw -B -q -pl src/verifier -am package -DskipTests) >&2
fi
mkdir -p "$out"
echo "exporting $partitions to $file"
"${psql[@]}" -v FETCH_COUNT=10000 -c "SELECT * FROM quaestor_audit_archive_export('$before')" > "$file"
records=$(grep -c '"type" *: *"record"' "$file" || true)

echo "verifying $records record(s) offline"
"${JAVA:-java}" -jar "$verifier" verify "$file" --trust "$key" "${tsa[@]}"
(cd "$out" && sha256sum "$(basename "$file")" > "$(basename "$file").sha256")

echo "writing archive markers and dropping $partitions"
"${psql[@]}" -F ' ' -c "SELECT 'archived chain ' || chain_id || ' up to seq ' || seq || ' (' || records || ' records), hash ' || entry_hash
    FROM quaestor_audit_archive('$before', $records)"
echo "done: keep $file and its .sha256 with the public key in write-once storage"
