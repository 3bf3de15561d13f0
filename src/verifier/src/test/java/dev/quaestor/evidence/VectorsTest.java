package dev.quaestor.evidence;

import dev.quaestor.evidence.check.ProofCheck;
import dev.quaestor.evidence.prove.ProofBuilder;
import dev.quaestor.evidence.write.NoteSigner;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.security.KeyFactory;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Published test vectors: the RFC 6962 test tree (as in Certificate Transparency's tests) and C2SP's signed-note example. */
class VectorsTest {

    static final HexFormat HEX = HexFormat.of();
    static final String[] LEAVES = {"", "00", "10", "2021", "3031", "40414243", "5051525354555657",
        "606162636465666768696a6b6c6d6e6f"};
    static final String[] ROOTS = {
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
        "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
        "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
        "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
        "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
        "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
        "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
        "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
        "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328"};

    static List<byte[]> leafHashes() {
        var out = new ArrayList<byte[]>();
        for (String l : LEAVES) {
            out.add(TreeHash.leaf(HEX.parseHex(l)));
        }
        return out;
    }

    /** A node source that computes every subtree from the leaves (the tests' reference). */
    static NodeSource fromLeaves(List<byte[]> leaves) {
        return new NodeSource() {
            @Override
            public byte[] node(int level, long index) {
                if (level == 0) {
                    return leaves.get((int) index);
                }
                return TreeHash.node(node(level - 1, 2 * index), node(level - 1, 2 * index + 1));
            }
        };
    }

    @Test
    void frontierRootsMatchTheTestTree() {
        var f = new Frontier();
        assertEquals(ROOTS[0], HEX.formatHex(f.root()));
        var leaves = leafHashes();
        for (int n = 1; n <= 8; n++) {
            f.append(leaves.get(n - 1), null);
            assertEquals(ROOTS[n], HEX.formatHex(f.root()), "root of " + n);
            assertEquals(ROOTS[n], HEX.formatHex(new ProofBuilder(fromLeaves(leaves)).root(n)));
            assertEquals(ROOTS[n], HEX.formatHex(Frontier.of(n, fromLeaves(leaves)).root()));
        }
    }

    @Test
    void inclusionAndConsistencyProofsOfEverySizeVerifyAndMatchTheVectors() {
        var leaves = leafHashes();
        var builder = new ProofBuilder(fromLeaves(leaves));
        assertEquals(List.of("bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
                "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
                "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7"),
                builder.inclusion(5, 8).stream().map(HEX::formatHex).toList());
        assertEquals(List.of("0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a",
                "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
                "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7"),
                builder.consistency(6, 8).stream().map(HEX::formatHex).toList());
        for (int n = 1; n <= 8; n++) {
            byte[] root = HEX.parseHex(ROOTS[n]);
            for (int m = 0; m < n; m++) {
                var path = builder.inclusion(m, n);
                assertTrue(ProofCheck.inclusion(m, n, leaves.get(m), path, root), m + " in " + n);
                assertFalse(ProofCheck.inclusion(m, n, leaves.get((m + 1) % 8), path, root));
                if (n > 1) {
                    assertFalse(ProofCheck.inclusion((m + 1) % n, n, leaves.get(m), path, root), "wrong index");
                }
            }
            for (int m = 0; m <= n; m++) {
                var proof = builder.consistency(m, n);
                assertTrue(ProofCheck.consistency(m, HEX.parseHex(ROOTS[m]), n, root, proof), m + " -> " + n);
                if (m > 0 && m < n) {
                    var forked = new ArrayList<>(proof);
                    byte[] bad = forked.get(0).clone();
                    bad[0] ^= 1;
                    forked.set(0, bad);
                    assertFalse(ProofCheck.consistency(m, HEX.parseHex(ROOTS[m]), n, root, forked));
                }
            }
        }
    }

    @Test
    void c2spSignedNoteExampleVerifies() throws Exception {
        var key = VerifierKey.parse("example.com/foo+530d903a+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k");
        String note = "This is an example message.\n\n\u2014 example.com/foo "
                + "Uw2QOkn8srV1yJGh2VYRlL1Tnagv1YEq6TfXppzi2ONncAlTgK7Ztg1ERYNZXsYjOBH3mFXmRKuwHjG1Yu72IneyaQM=\n";
        var opened = SignedNote.open(note.getBytes(StandardCharsets.UTF_8), Set.of(key));
        assertEquals("This is an example message.\n", opened.text());
        assertThrows(SignedNote.Refused.class, () -> SignedNote.open(
                note.replace("example message", "example massage").getBytes(StandardCharsets.UTF_8), Set.of(key)));
    }

    @Test
    void checkpointSignedWithTheTestSeedIsByteIdenticalToGos() throws Exception {
        byte[] seed = HEX.parseHex("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f");
        byte[] pkcs8 = HEX.parseHex("302e020100300506032b657004220420" + HEX.formatHex(seed));
        var priv = KeyFactory.getInstance("Ed25519").generatePrivate(new PKCS8EncodedKeySpec(pkcs8));
        var key = VerifierKey.parse("quaestor.example/audit/writer-1+0b2cac5b+AQOhB7/zzhC+HXDdGOdLwJln5NYwm6UNXx3chmQSVTG4");
        assertEquals("quaestor.example/audit/writer-1+0b2cac5b+AQOhB7/zzhC+HXDdGOdLwJln5NYwm6UNXx3chmQSVTG4", key.toString());
        String text = "quaestor.example/audit/writer-1\n8\nXcnaeacGWamtVZy3Ad7ZoqudgjqtL0lgz+Nw7/RgQyg=\n";
        assertEquals(text + "\n\u2014 quaestor.example/audit/writer-1 CyysW/3r9H+qwnkL4/I81p3MIfu4RTi8QVZ6kR/RIYIoaq8HYA35KnqJc0uas69X6P9MHG1Y4Iko0X26t+YNsteDugA=\n",
                NoteSigner.sign(text, key, priv));
    }

    @Test
    void canonicalRecordRoundTrips() {
        var r = new java.util.LinkedHashMap<String, String>();
        r.put("v", "2");
        r.put("log", "a");
        r.put("seq", "1");
        r.put("subject", "jos\u00e9");
        r.put("detail", "two\nlines");
        byte[] c = RecordFormat.canonical(r);
        String text = new String(c, StandardCharsets.UTF_8);
        assertTrue(text.startsWith("v=1:2\nlog=1:a\nseq=1:1\ntime=-\n"), text);
        assertTrue(text.contains("subject=5:jos\u00e9\n"), text);
        assertTrue(text.endsWith("detail=9:two\nlines\n"), text);
        assertEquals(r, RecordFormat.parse(c));
        assertArrayEquals(TreeHash.leaf(c), RecordFormat.leafHash(r));
    }

    @Test
    void aVersion3RecordHasItsSummaryFieldsBeforeDetail() {
        var r = new java.util.LinkedHashMap<String, String>();
        r.put("v", "3");
        r.put("log", "a");
        r.put("seq", "1");
        r.put("count", "12");
        r.put("uris", "11 file:///x\n1 file:///y");
        r.put("uris_more", "0");
        r.put("detail", "d");
        byte[] c = RecordFormat.canonical(r);
        String text = new String(c, StandardCharsets.UTF_8);
        assertTrue(text.startsWith("v=1:3\nlog=1:a\n"), text);
        assertTrue(text.endsWith("count=2:12\nfirst=-\nlast=-\nuris=24:11 file:///x\n1 file:///y\nuris_more=1:0\ndetail=1:d\n"),
                text);
        assertEquals(r, RecordFormat.parse(c));
        assertEquals("3", RecordFormat.versionFor(r));

        // The same fields in version 2 would leave the summary's URIs outside the hash: version 2 has no such field.
        var v2 = new java.util.LinkedHashMap<>(r);
        v2.put("v", "2");
        assertEquals("uris", RecordFormat.unknownField(v2));
        v2.remove("uris");
        v2.remove("uris_more");
        assertEquals("2", RecordFormat.versionFor(v2));
        byte[] c2 = RecordFormat.canonical(v2);
        assertEquals(v2, RecordFormat.parse(c2));
        assertFalse(new String(c2, StandardCharsets.UTF_8).contains("uris"));
        // Bytes that say version 3 but hold version 2's fields (or the reverse) are refused.
        assertThrows(IllegalArgumentException.class, () -> RecordFormat.parse(
                new String(c2, StandardCharsets.UTF_8).replaceFirst("v=1:2", "v=1:3").getBytes(StandardCharsets.UTF_8)));
        assertThrows(IllegalArgumentException.class, () -> RecordFormat.parse(
                text.replaceFirst("v=1:3", "v=1:2").getBytes(StandardCharsets.UTF_8)));
    }

    /** The time-stamp line's key id, as docs/audit-format.md (section 3.1) states it, and the line's round trip. */
    @Test
    void theTimeStampLineIsAsTheFormatSays() {
        assertEquals("ef335db1", String.format("%08x", Anchor.KEY_ID));
        String note = "o\n1\nAAAA\n\n\u2014 k AAAAAAA=\n";
        byte[] token = {0x30, 0x03, 0x02, 0x01, 0x07};
        String anchored = Anchor.attach(note, Anchor.field(token));
        assertTrue(anchored.endsWith("\n\u2014 rfc3161-timestamp 7zNdsTADAgEH\n"), anchored);
        assertArrayEquals(token, Anchor.find(anchored));
        assertEquals(null, Anchor.find(note));
        assertThrows(IllegalArgumentException.class, () -> Anchor.find(note + "\u2014 rfc3161-timestamp AAAAAAAA\n"));
    }
}
