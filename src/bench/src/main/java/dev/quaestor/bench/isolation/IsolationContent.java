package dev.quaestor.bench.isolation;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The files the benchmark's mount serves ({@code file:///bench/}): the public 1 KiB file the legitimate client
 * reads, the files the listens name, the large file the slow readers ask for and the 1,000,000-byte file the batches
 * read; and beside it the archive ({@code file:///archive/}, listed before it), a mount of many small files no one
 * may see, for the listings.
 */
record IsolationContent(Path root, String publicUri, List<String> listenUris, String largeUri, int largeMib,
        String millionUri, Path archiveRoot, int archiveFiles) {

    static final String MOUNT = "file:///bench/";
    static final String ARCHIVE = "file:///archive/";

    static IsolationContent create(Path root, int listenFiles, int largeMib, Path archiveRoot, int archiveFiles)
            throws IOException {
        Files.createDirectories(root.resolve("listen"));
        var line = "public text the legitimate client reads, the same for everyone.\n";
        Files.writeString(root.resolve("public.txt"), line.repeat(1024 / line.length() + 1).substring(0, 1024));
        var uris = new ArrayList<String>();
        for (int i = 0; i < listenFiles; i++) {
            String name = String.format("u%04d.txt", i);
            Path f = root.resolve("listen").resolve(name);
            if (!Files.exists(f)) {
                Files.writeString(f, "listened file " + i + "\n");
            }
            uris.add(MOUNT + "listen/" + name);
        }
        Path large = root.resolve("large.bin");
        if (!Files.exists(large) || Files.size(large) != (long) largeMib << 20) {
            var random = new SplittableRandom(64);
            byte[] chunk = new byte[1 << 20];
            try (OutputStream out = Files.newOutputStream(large)) {
                for (int i = 0; i < largeMib; i++) {
                    for (int j = 0; j < chunk.length; j++) {
                        chunk[j] = (byte) random.nextInt(256);
                    }
                    out.write(chunk);
                }
            }
        }
        Path million = root.resolve("million.bin");
        if (!Files.exists(million) || Files.size(million) != 1_000_000) {
            byte[] bytes = new byte[1_000_000];
            new SplittableRandom(6).nextBytes(bytes);
            Files.write(million, bytes);
        }
        for (int i = 0; i < archiveFiles; i++) {
            Path dir = Files.createDirectories(archiveRoot.resolve(String.format("d%03d", i / 500)));
            Path f = dir.resolve(String.format("f%06d.txt", i));
            if (!Files.exists(f)) {
                Files.writeString(f, "archived " + i + "\n");
            }
        }
        return new IsolationContent(root, MOUNT + "public.txt", List.copyOf(uris), MOUNT + "large.bin", largeMib,
                MOUNT + "million.bin", archiveRoot, archiveFiles);
    }

    /** The public file's bytes, for checking what the legitimate client was served. */
    String publicText() throws IOException {
        return Files.readString(root.resolve("public.txt"), StandardCharsets.UTF_8);
    }
}
