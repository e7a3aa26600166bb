package io.rill.handler.codec.http.multipart;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * Where uploads spill: a directory made on first use, readable by this user only (0700), holding
 * files readable by this user only (0600). Both are created with those permissions, never
 * created and then narrowed, so no other user can open a file in between (docs/security-cases.md,
 * case R-05).
 */
final class UploadDirectory {

    private static final boolean POSIX = FileSystems.getDefault().supportedFileAttributeViews().contains("posix");

    /** Where to make the private directory; null for {@code java.io.tmpdir}. */
    private final Path parent;
    private Path dir;

    UploadDirectory(Path parent) {
        this.parent = parent;
    }

    Path newFile() throws IOException {
        if (dir == null) {
            Path base = parent != null ? parent : Path.of(System.getProperty("java.io.tmpdir"));
            dir = Files.createTempDirectory(base, "rill-upload-", permissions("rwx------"));
        }
        return Files.createTempFile(dir, "part-", ".tmp", permissions("rw-------"));
    }

    /** The permissions as a creation attribute where the file system has them; none elsewhere (Windows). */
    private static FileAttribute<?>[] permissions(String mode) {
        return POSIX ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(mode))}
                : new FileAttribute<?>[0];
    }

    /** Removes the directory if it was made and is empty (its files were deleted first). */
    void delete() {
        if (dir != null) {
            try {
                Files.deleteIfExists(dir);
            } catch (IOException ignored) {
                // not empty: an application kept a file it took over; leave it
            }
        }
    }
}
