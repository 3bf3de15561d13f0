package dev.quaestor.evidence.bundle;

import dev.quaestor.evidence.Plain;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.List;
import java.util.TreeSet;

/**
 * A bundle's {@code README.txt} (docs/audit-format.md, section 7.3): what is in it, who made it, when, for which
 * case, and the exact commands to check it, with the verifier and piece by piece with standard tools. It is made
 * from the manifest and the names of the bundle's files alone, so a checker makes it again and compares.
 */
public final class BundleReadme {

    private BundleReadme() {
    }

    /** The README of a bundle with this manifest (its files need not be filled in) and these files (README's own name among them or not). */
    public static byte[] of(Manifest m, Collection<String> names) {
        List<String> tokens = names.stream().filter(n -> n.startsWith("checkpoints/") && n.endsWith(".tsr")).sorted(BundleNames.ORDER).toList();
        long checkpoints = names.stream().filter(n -> n.startsWith("checkpoints/") && n.endsWith(".note")).count();
        long consistency = names.stream().filter(n -> n.startsWith("consistency/")).count();
        var logs = new TreeSet<String>();
        var revisions = new TreeSet<String>();
        for (String n : names) {
            String[] parts = n.split("/", -1);
            if (parts.length == 3 && (parts[0].equals("proofs") || parts[0].equals("checkpoints"))) {
                logs.add(parts[1]);
            } else if (parts.length == 3 && parts[0].equals("policy")) {
                revisions.add(parts[1]);
            }
        }
        var t = new StringBuilder(4096);
        t.append("Quaestor evidence bundle\n");
        t.append("========================\n\n");
        // The manifest's words are not signed: shown with line breaks and control characters escaped (Plain.visible),
        // so that they cannot add lines of their own.
        String request = Plain.visible(m.request());
        t.append("Made by ").append(Plain.visible(m.madeBy())).append(" at ").append(m.made()).append(" (UTC), ")
                .append(m.forCase() == null ? "not for a case" : "for case " + Plain.visible(m.forCase())).append(".\n");
        t.append("Selected: ").append(Plain.visible(m.selection())).append(".\n");
        if (m.caseSealKey() != null) {
            t.append("The record of its making names the case only by the HMAC-SHA-256 of its name (as manifest.json gives\n");
            t.append("it, in UTF-8) under the key caseSealKey in manifest.json, which only this bundle's holders have.\n");
        }
        t.append("It holds ").append(m.records()).append(" audit record(s) of ").append(m.requests()).append(" request(s) from ")
                .append(logs.size()).append(" log(s), each record with its proof; ").append(checkpoints).append(" signed checkpoint(s), ")
                .append(tokens.size()).append(" of them time-stamped; ").append(consistency).append(" consistency proof(s); and the policy")
                .append(" files of ").append(revisions.size()).append(" policy revision(s).\n");
        if (!m.revisionsNotKept().isEmpty()) {
            t.append("The server had not kept the files of policy revision(s) ").append(Plain.visible(String.join(", ", m.revisionsNotKept())))
                    .append(", which some records name: they are not in the bundle.\n");
        }
        t.append("The making of this bundle is on record in the audit log, request id ").append(request)
                .append(", with the SHA-256 of this ZIP file.\n\n");

        t.append("What checking it proves, and what it does not\n");
        t.append("---------------------------------------------\n");
        t.append("Proven, with the log's verifier key and the TSA's root: each record is in its log, by its proof, at a\n");
        t.append("checkpoint the log's key signed; when the TSA saw each time-stamped checkpoint; that the log only grew\n");
        t.append("between the checkpoints; and that the policy files hash to the revisions the records name.\n");
        t.append("Only its maker's word, in manifest.json, which is not signed: who made it, when, for which case, what\n");
        t.append("was selected, and that it holds every record of each selected request. The record of its making in\n");
        t.append("the log confirms them (step 3 below).\n\n");

        t.append("What is in it (the format: docs/audit-format.md, section 7)\n");
        t.append("----------------------------------------------------------\n");
        t.append("records.jsonl                    the selected records only, one per line, in the audit export format\n");
        t.append("proofs/LOG/SEQ.tlog-proof        each record's proof (C2SP tlog-proof): the record, its inclusion path and\n");
        t.append("                                 the signed checkpoint it leads to\n");
        t.append("checkpoints/LOG/SIZE.note        each checkpoint the proofs lead to, as a C2SP signed note\n");
        t.append("checkpoints/LOG/SIZE.tsr         its RFC 3161 time-stamp token, as the time-stamping authority's reply\n");
        t.append("consistency/LOG/SIZE-LATEST.txt  a log of SIZE records is the start of the log at its latest checkpoint here\n");
        t.append("policy/REVISION/FILE             the policy files as they were at each revision the records name\n");
        t.append("manifest.json                    every other file with its size and SHA-256\n");
        t.append("For a read, the record's sha256 is the SHA-256 of exactly the bytes served: hash a copy (sha256sum) and\n");
        t.append("compare.\n\n");

        t.append("How to check it\n");
        t.append("---------------\n");
        t.append("You need the log's verifier key from your own records (audit.vkey, a line quaestor.audit+...) and, for\n");
        t.append("the time-stamps, your time-stamping authority's root certificate (tsa-root.pem). Nothing else: no\n");
        t.append("server, no network.\n\n");
        t.append("1. Everything at once, with the verifier (quaestor-verify.jar):\n\n");
        t.append("   java -jar quaestor-verify.jar bundle check BUNDLE.zip --trust audit.vkey --tsa-ca tsa-root.pem\n\n");
        t.append("2. Piece by piece, with standard tools, in the folder the bundle is unpacked to:\n\n");
        t.append("   unzip BUNDLE.zip -d bundle && cd bundle\n");
        t.append("   # every file is the one the manifest names\n");
        t.append("   sed -n 's/^ *{\"name\":\"\\([^\"]*\\)\",\"bytes\":[0-9]*,\"sha256\":\"\\([0-9a-f]*\\)\"}.*/\\2  \\1/p' manifest.json | sha256sum -c\n");
        if (!tokens.isEmpty()) {
            t.append("   # each time-stamp token is over its checkpoint's text (the four lines the log's key signed)\n");
            for (String token : tokens) {
                String note = token.substring(0, token.length() - ".tsr".length()) + ".note";
                t.append("   openssl ts -verify -in ").append(token).append(" -data <(head -n 4 ").append(note)
                        .append(") -CAfile tsa-root.pem\n");
            }
        }
        if (!revisions.isEmpty()) {
            t.append("   # each policy folder hashes to its revision: names sorted, each name, NUL, text, NUL\n");
            for (String r : revisions) {
                // The command holds for names of letters, digits, '.', '_' and '-' only, not first '.' (ls skips them) or
                // '-' (an option to cat); the revision of any other name is left to the verifier.
                String folder = BundleNames.policyFolder(r);
                if (names.stream().anyMatch(n -> n.startsWith(folder) && !n.substring(folder.length()).matches("[A-Za-z0-9_][A-Za-z0-9._-]*"))) {
                    t.append("   # ").append(folder).append(": a file name there is not plain (it is percent-encoded, or starts with\n")
                            .append("   # '.' or '-'), so this loop would not hash it right: step 1 checks it\n");
                    continue;
                }
                t.append("   (cd policy/").append(r).append(" && for f in $(ls | LC_ALL=C sort); do printf '%s\\0' \"$f\"; cat \"$f\";")
                        .append(" printf '\\0'; done | sha256sum)\n");
            }
        }
        t.append("   The checkpoints are C2SP signed notes and the proofs C2SP tlog-proofs: transparency-log tools read\n");
        t.append("   them (Go's golang.org/x/mod/sumdb/note checks a checkpoint's signature with audit.vkey).\n\n");
        t.append("3. That this is the bundle that was made, and what was selected: sha256sum BUNDLE.zip, and compare it\n");
        t.append("   with the sha256 of the record of request ").append(request).append(" with method audit/bundle/made,\n");
        t.append("   whose detail names what was selected. Find that record with the log's verifier, in a verified export\n");
        t.append("   of the log, or in its proof (GET /audit/proof?requestId=").append(request).append("):\n\n");
        t.append("   java -jar quaestor-verify.jar check PROOF --trust audit.vkey\n");
        return t.toString().getBytes(StandardCharsets.UTF_8);
    }
}
