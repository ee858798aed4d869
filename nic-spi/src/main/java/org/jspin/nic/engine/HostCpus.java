package org.jspin.nic.engine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * How many CPUs the host's ranks share. Not this process's own count: a rank bound to one CPU
 * ({@code jspin run --bind-to core}) sees one, though each of two ranks has a CPU to itself. The
 * larger of the JVM's count and the host's online CPUs ({@code /sys/devices/system/cpu/online}).
 */
final class HostCpus {
    private static final int COUNT = Math.max(Runtime.getRuntime().availableProcessors(), online());

    private HostCpus() {
    }

    /** @return the CPUs the host's ranks share */
    static int count() {
        return COUNT;
    }

    /** @return the CPUs {@code /sys/devices/system/cpu/online} lists ("0-1,4"), or 0 where it cannot be read */
    static int online() {
        try {
            return parse(Files.readString(Path.of("/sys/devices/system/cpu/online")));
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    /** @return the CPUs a Linux CPU list names ("0-3,6"), or 0 for a malformed one */
    static int parse(String list) {
        int n = 0;
        for (String part : list.strip().split(",")) {
            if (part.isEmpty()) {
                continue;
            }
            int dash = part.indexOf('-');
            try {
                n += dash < 0 ? 1 : Integer.parseInt(part.substring(dash + 1)) - Integer.parseInt(part.substring(0, dash)) + 1;
            } catch (NumberFormatException e) {
                return 0;
            }
        }
        return n;
    }
}
