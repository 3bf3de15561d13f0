package dev.quaestor.audit.write;

import dev.quaestor.audit.record.AuditRecords;
import dev.quaestor.audit.record.RecordText;
import dev.quaestor.evidence.Checkpoint;
import dev.quaestor.evidence.Frontier;
import dev.quaestor.evidence.Hex;
import dev.quaestor.evidence.RecordFormat;
import dev.quaestor.evidence.SignedNote;
import dev.quaestor.evidence.VerifierKey;
import dev.quaestor.support.TestDatabase;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * An independent reading of one log straight from the database, for tests of the writer: every
 * record's leaf hash, the tree at every checkpoint's size, every checkpoint's signature under the
 * pinned keys, and every stored node against the records.
 */
final class LogCheck {

    record Result(long size, long lastCheckpoint, Map<String, Long> kinds, List<String> problems) {
    }

    private LogCheck() {
    }

    static Result of(String log, String origin, Set<VerifierKey> trusted) throws Exception {
        var problems = new ArrayList<String>();
        var checkpoints = new TreeMap<Long, Checkpoint>();
        var nodes = new HashMap<String, String>();
        var kinds = new TreeMap<String, Long>();
        var f = new Frontier();
        try (var c = DriverManager.getConnection(TestDatabase.url(), "postgres", "")) {
            try (var ps = c.prepareStatement("SELECT seq, note FROM audit_checkpoint WHERE chain_id = ? ORDER BY seq")) {
                ps.setString(1, log);
                try (var rs = ps.executeQuery()) {
                    while (rs.next()) {
                        try {
                            var k = Checkpoint.open(rs.getString(2), trusted);
                            if (!k.origin().equals(origin) || k.size() != rs.getLong(1)) {
                                problems.add("checkpoint " + rs.getLong(1) + ": origin or size differs");
                            }
                            checkpoints.put(k.size(), k);
                        } catch (SignedNote.Refused e) {
                            problems.add("checkpoint " + rs.getLong(1) + ": " + e.getMessage());
                        }
                    }
                }
            }
            try (var ps = c.prepareStatement("SELECT level, idx, hash FROM audit_tree_node WHERE chain_id = ?")) {
                ps.setString(1, log);
                try (var rs = ps.executeQuery()) {
                    while (rs.next()) {
                        nodes.put(rs.getInt(1) + "/" + rs.getLong(2), rs.getString(3));
                    }
                }
            }
            var computed = new HashMap<String, String>();
            try (var ps = c.prepareStatement("SELECT " + AuditRecords.COLUMN_LIST + " FROM audit_entry WHERE chain_id = ? ORDER BY seq")) {
                ps.setString(1, log);
                try (var rs = ps.executeQuery()) {
                    while (rs.next()) {
                        var r = RecordText.read(rs, 1);
                        long seq = Long.parseLong(r.field("seq"));
                        if (seq != f.size() + 1) {
                            problems.add("seq " + seq + " follows " + f.size());
                        }
                        byte[] leaf = RecordFormat.leafHash(r::field);
                        if (!Hex.of(leaf).equals(r.field("hash"))) {
                            problems.add("record " + seq + ": content does not match its hash");
                        }
                        kinds.merge(r.field("kind"), 1L, Long::sum);
                        f.append(leaf, (level, index, hash) -> computed.put(level + "/" + index, Hex.of(hash)));
                        var k = checkpoints.get(f.size());
                        if (k != null && !Arrays.equals(k.root(), f.root())) {
                            problems.add("checkpoint " + f.size() + ": root does not match the records");
                        }
                    }
                }
            }
            for (var e : nodes.entrySet()) {
                if (e.getKey().startsWith("0/")) {
                    continue; // a month's last leaf: checked as a record
                }
                String want = computed.get(e.getKey());
                if (want != null && !want.equals(e.getValue())) {
                    problems.add("node " + e.getKey() + " differs from the records");
                }
            }
        }
        long last = checkpoints.isEmpty() ? 0 : checkpoints.lastKey();
        return new Result(f.size(), last, kinds, problems);
    }
}
