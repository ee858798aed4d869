package org.jspin.transport.shm;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Removes the ring files of processes that are gone. A ring's name says which process made it
 * ({@code jspin-shm-<pid>-<start>-<random>}, the start in clock ticks since boot, as
 * {@code /proc/<pid>/stat} gives it, so a reused pid is not mistaken for the maker). A job's
 * rings lose their names as soon as every rank has mapped them; only a process killed before
 * that leaves one behind, and the next job on the host removes it as it starts.
 */
final class StaleRings {
    private static final Logger LOG = LoggerFactory.getLogger(StaleRings.class);
    private static final String SELF = ProcessHandle.current().pid() + "-" + startTicks(ProcessHandle.current().pid());

    private StaleRings() {
    }

    /** @return this process's part of a ring's name: pid and start time */
    static String selfTag() {
        return SELF;
    }

    /**
     * Removes every ring file in {@code dir} whose maker is no longer running.
     *
     * @return the files removed
     */
    static int sweep(Path dir) {
        int removed = 0;
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, RingFile.PREFIX + "*")) {
            for (Path f : files) {
                if (makerGone(f.getFileName().toString())) {
                    try {
                        if (Files.deleteIfExists(f)) {
                            removed++;
                            LOG.info("removed {}, left behind by a process that has ended", f);
                        }
                    } catch (IOException e) {
                        LOG.debug("cannot remove {}: {}", f, e.toString()); // another user's, say
                    }
                }
            }
        } catch (IOException e) {
            LOG.debug("cannot list {}: {}", dir, e.toString());
        }
        return removed;
    }

    /** @return whether the process a ring file's name names has ended (a malformed name is left alone) */
    static boolean makerGone(String name) {
        String[] f = name.substring(RingFile.PREFIX.length()).split("-");
        if (f.length != 3) {
            return false;
        }
        long pid;
        try {
            pid = Long.parseLong(f[0]);
        } catch (NumberFormatException e) {
            return false;
        }
        String start = startTicks(pid);
        return start == null || !start.equals(f[1]);
    }

    /** @return field 22 of {@code /proc/<pid>/stat} (the start time in clock ticks), or null if there is no such process */
    static String startTicks(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            String[] after = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return after[19]; // fields from the third on; the start time is the 22nd
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
