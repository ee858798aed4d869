package org.jspin.bootstrap.launch;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Process liveness as the launcher needs it. */
final class Processes {
    private Processes() {
    }

    /**
     * Whether {@code h} is still running. Unlike {@link ProcessHandle#isAlive()} a zombie counts as
     * gone: it has exited and holds nothing but its process-table entry, which only its parent can
     * release. A grandchild orphaned by a killed rank is re-parented to PID 1, which reaps when it
     * gets round to it (a container's init may poll only every second or so; a minimal one may never
     * reap), so waiting for {@code isAlive()} to turn false would wait on someone else's schedule
     * for a process that is already dead.
     */
    static boolean running(ProcessHandle h) {
        return h.isAlive() && !zombie(h.pid());
    }

    /** @return whether Linux reports {@code pid} as a zombie (false where there is no /proc) */
    static boolean zombie(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"), StandardCharsets.US_ASCII);
            // "pid (comm) S ...": the command may hold spaces and parentheses, the state follows the last ')'
            int close = stat.lastIndexOf(')');
            return close > 0 && close + 2 < stat.length() && stat.charAt(close + 2) == 'Z';
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }
}
