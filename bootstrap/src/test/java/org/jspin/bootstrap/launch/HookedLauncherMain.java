package org.jspin.bootstrap.launch;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * A launcher in a JVM of its own, for the test that terminates it: runs {@code args[0]} ranks of
 * the shell script {@code args[1]} for a minute, its output on this JVM's stdout and stderr.
 */
public final class HookedLauncherMain {
    private HookedLauncherMain() {
    }

    /** @param args the number of ranks and the {@code sh -c} script each runs */
    public static void main(String[] args) {
        int n = Integer.parseInt(args[0]);
        RankLauncher.Result r = new RankLauncher(System.out, System.err).run(n,
                rank -> List.of("sh", "-c", args[1]), rank -> Map.of(), Duration.ofSeconds(60));
        System.exit(r.exitCode());
    }
}
