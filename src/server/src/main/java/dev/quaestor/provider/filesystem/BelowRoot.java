package dev.quaestor.provider.filesystem;

import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Set;

/**
 * Opens a file below a mount's root, or reads its attributes, without following a symbolic link anywhere below the
 * root. The path given is a real path checked to be below the root ({@code toRealPath}, so it holds no link); but
 * between that check and the open, a folder on it can be replaced by a link to anywhere, and an open by path would
 * follow it. So the open walks from the root one name at a time, each folder opened relative to the one before and
 * refused if it is a link ({@code openat} with {@code O_NOFOLLOW}, through {@link SecureDirectoryStream}): what it
 * opens is below the root whatever changes meanwhile, and a folder swapped for a link makes it fail as if absent.
 *
 * <p>Where the platform has no {@link SecureDirectoryStream}, the file is opened by path without following a link
 * in its last name, and its real path is checked again after the open.
 */
final class BelowRoot {

    private static final LinkOption[] NO_FOLLOW = {LinkOption.NOFOLLOW_LINKS};

    private BelowRoot() {
    }

    /**
     * The file at {@code real} (below {@code root}), opened for reading. A link met on the way (or a file where a
     * folder was) is {@link NoSuchFileException}: the file is not there as checked.
     */
    static SeekableByteChannel open(Path root, Path real) throws IOException {
        Path rel = root.relativize(real);
        try {
            DirectoryStream<Path> parent = parentOf(root, rel);
            if (parent == null) {
                return openByPath(real);
            }
            try (parent) {
                return ((SecureDirectoryStream<Path>) parent).newByteChannel(rel.getFileName(),
                        Set.of(StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS));
            }
        } catch (IOException e) {
            throw absentIfMoved(real, e);
        }
    }

    /** As {@link #open}, as a stream. */
    static InputStream stream(Path root, Path real) throws IOException {
        return Channels.newInputStream(open(root, real));
    }

    /** The attributes of the file at {@code real} (below {@code root}), of the file itself if it is a link. */
    static BasicFileAttributes attributes(Path root, Path real) throws IOException {
        Path rel = root.relativize(real);
        try {
            DirectoryStream<Path> parent = parentOf(root, rel);
            if (parent == null) {
                return Files.readAttributes(real, BasicFileAttributes.class, NO_FOLLOW);
            }
            try (parent) {
                return ((SecureDirectoryStream<Path>) parent)
                        .getFileAttributeView(rel.getFileName(), BasicFileAttributeView.class, NO_FOLLOW).readAttributes();
            }
        } catch (IOException e) {
            throw absentIfMoved(real, e);
        }
    }

    /**
     * A link where the walk wanted a folder or the file ({@code ELOOP}), or a file where it wanted a folder
     * ({@code ENOTDIR}): the path changed since it was checked, and the file is absent as far as this read goes.
     * Anything else (a file not there, access refused, the process out of file descriptors) is itself.
     */
    private static IOException absentIfMoved(Path real, IOException e) {
        String reason = e instanceof FileSystemException f ? String.valueOf(f.getReason()) : String.valueOf(e.getMessage());
        boolean moved = e instanceof java.nio.file.NotDirectoryException
                || e.getClass() == IOException.class && reason.contains("symbolic links")
                || e.getClass() == FileSystemException.class && (reason.contains("symbolic link") || reason.contains("Not a directory"));
        if (moved) {
            var absent = new NoSuchFileException(real.toString(), null, "changed since it was checked: " + reason);
            absent.initCause(e);
            return absent;
        }
        return e;
    }

    /**
     * The folder holding {@code rel}'s last name, reached from the root one folder at a time without following a
     * link; null where the platform cannot do that.
     */
    private static DirectoryStream<Path> parentOf(Path root, Path rel) throws IOException {
        if (rel.getNameCount() == 0 || rel.isAbsolute() || rel.startsWith("..")) {
            throw new FileSystemException(rel.toString(), null, "not below the root");
        }
        DirectoryStream<Path> dir = Files.newDirectoryStream(root);
        if (!(dir instanceof SecureDirectoryStream<Path> secure)) {
            dir.close();
            return null;
        }
        try {
            for (int i = 0; i < rel.getNameCount() - 1; i++) {
                SecureDirectoryStream<Path> next = secure.newDirectoryStream(rel.getName(i), NO_FOLLOW);
                secure.close();
                secure = next;
            }
            return secure;
        } catch (IOException | RuntimeException e) {
            secure.close();
            throw e;
        }
    }

    private static SeekableByteChannel openByPath(Path real) throws IOException {
        SeekableByteChannel channel = Files.newByteChannel(real, Set.of(StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS));
        if (!real.toRealPath().equals(real)) {
            channel.close();
            throw new FileSystemException(real.toString(), null, "a folder on its path was replaced by a link");
        }
        return channel;
    }
}
