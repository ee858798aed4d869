package org.jspin.transport.shm;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * What makes two processes ranks of one host for the shm fabric: the same running kernel (its boot
 * id), the same network stack (what a launcher's notion of a node is: two network namespaces are
 * two hosts, as containers and this project's two-host tests are), the same process-id space (the
 * fabric tells a dead peer by its pid) and the same ring directory. Ranks whose keys match share
 * rings; the others talk over TCP.
 */
final class HostIdentity {
    private HostIdentity() {
    }

    /**
     * @param ringDir where this process makes its ring
     * @return a key (32 hex digits) equal for exactly the processes that can share rings in {@code ringDir}
     */
    static String of(Path ringDir) {
        StringBuilder b = new StringBuilder();
        b.append(read(Path.of("/proc/sys/kernel/random/boot_id"))).append('\n');
        b.append(link(Path.of("/proc/self/ns/net"))).append('\n');
        b.append(link(Path.of("/proc/self/ns/pid"))).append('\n');
        try {
            b.append(Files.readAttributes(ringDir, BasicFileAttributes.class).fileKey());
        } catch (IOException e) {
            b.append(ringDir.toAbsolutePath()); // the fabric reports the directory when it makes the ring
        }
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(b.toString().getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }

    private static String read(Path p) {
        try {
            return Files.readString(p).strip();
        } catch (IOException e) {
            return "?"; // without it only the other parts tell hosts apart
        }
    }

    private static String link(Path p) {
        try {
            return Files.readSymbolicLink(p).toString();
        } catch (IOException | UnsupportedOperationException e) {
            return "?";
        }
    }
}
