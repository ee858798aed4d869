package org.jspin.bootstrap.launch;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A process group per rank, through util-linux's {@code setsid} and {@code kill} where present
 * (Debian has both): a child the rank started at the moment it was stopped, reparented to init and
 * so no longer a descendant, can still be found by its group and stopped. Without them this does
 * nothing and the descendant sweep is all the launcher has.
 */
final class ProcessGroups {
    private static final String SETSID = executable("/usr/bin/setsid");
    private static final String KILL = executable("/usr/bin/kill");

    private ProcessGroups() {
    }

    /**
     * @return {@code cmd} run as the leader of a process group of its own ({@code setsid} execs the
     *         command in place, so the pid stays the rank's); {@code cmd} itself without setsid, or
     *         when its program cannot be found (so it fails to start as itself, not as setsid's exit code)
     */
    static List<String> inOwnGroup(List<String> cmd) {
        if (SETSID == null || !resolvable(cmd.getFirst())) {
            return cmd;
        }
        List<String> wrapped = new ArrayList<>(cmd.size() + 1);
        wrapped.add(SETSID);
        wrapped.addAll(cmd);
        return wrapped;
    }

    /** Sends {@code signal} ({@code TERM}, {@code KILL}) to the process group {@code group}; a group that is gone is no error. */
    static void signal(long group, String signal) {
        if (SETSID == null || KILL == null) {
            return;
        }
        try {
            Process k = new ProcessBuilder(KILL, "-s", signal, "--", "-" + group).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            k.waitFor(2, TimeUnit.SECONDS);
        } catch (IOException e) {
            // no kill binary after all: the descendant sweep is all we have
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** @return whether {@code program} names an executable file, directly (with a '/') or on the PATH */
    static boolean resolvable(String program) {
        if (program.contains("/")) {
            return Files.isExecutable(Path.of(program));
        }
        String path = System.getenv("PATH");
        if (path != null) {
            for (String dir : path.split(File.pathSeparator)) {
                if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, program))) {
                    return true;
                }
            }
        }
        return false;
    }

    private static String executable(String path) {
        return Files.isExecutable(Path.of(path)) ? path : null;
    }
}
