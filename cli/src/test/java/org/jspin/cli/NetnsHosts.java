package org.jspin.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Two hosts on this machine: two network namespaces joined by a veth pair, host i at
 * {@code 10.77.0.(i+1)/24} with its own loopback. What crosses between them crosses a network
 * interface, as between machines; taking a host's end of the link down is a host that vanishes.
 * Needs root and iproute2's {@code ip} (which {@code jspin test} installs); when either is missing the
 * constructor fails saying so, rather than the tests being skipped.
 */
final class NetnsHosts implements AutoCloseable {
    private final String ip;
    private final String[] namespaces = new String[2];
    private final String[] links = new String[2];

    NetnsHosts() {
        this.ip = findIp();
        String tag = Long.toString(ProcessHandle.current().pid());
        for (int i = 0; i < 2; i++) {
            namespaces[i] = "jspin-h" + i + "-" + tag;
            links[i] = "jv" + i + "-" + tag; // at most 15 characters, as the kernel asks
        }
        try {
            for (int i = 0; i < 2; i++) {
                run(ip, "netns", "add", namespaces[i]);
            }
            run(ip, "link", "add", links[0], "netns", namespaces[0], "type", "veth", "peer", "name", links[1], "netns",
                    namespaces[1]);
            for (int i = 0; i < 2; i++) {
                run(ip, "-n", namespaces[i], "addr", "add", address(i) + "/24", "dev", links[i]);
                run(ip, "-n", namespaces[i], "link", "set", links[i], "up");
                run(ip, "-n", namespaces[i], "link", "set", "lo", "up");
            }
        } catch (RuntimeException | AssertionError e) {
            close();
            throw e;
        }
    }

    /** @return host {@code i}'s address on the link */
    String address(int i) {
        return "10.77.0." + (i + 1);
    }

    /** @return {@code command} as run on host {@code i} */
    List<String> on(int i, List<String> command) {
        List<String> c = new ArrayList<>(List.of(ip, "netns", "exec", namespaces[i]));
        c.addAll(command);
        return c;
    }

    /** Takes host {@code i}'s end of the link down: from then on nothing reaches it, and it says nothing. */
    void linkDown(int i) {
        run(ip, "-n", namespaces[i], "link", "set", links[i], "down");
    }

    /** @return bytes host {@code i} received on the link so far (its interface's counter) */
    long receivedBytes(int i) {
        return rxBytes(i, links[i]);
    }

    /** @return bytes that went over host {@code i}'s loopback so far: TCP between its own processes */
    long loopbackBytes(int i) {
        return rxBytes(i, "lo");
    }

    private long rxBytes(int i, String device) {
        String stats = run(ip, "netns", "exec", namespaces[i], "cat", "/sys/class/net/" + device + "/statistics/rx_bytes");
        return Long.parseLong(stats.strip());
    }

    @Override
    public void close() {
        for (String ns : namespaces) {
            if (ns != null) {
                try {
                    run(ip, "netns", "del", ns); // takes its end of the veth pair, and so the pair, with it
                } catch (RuntimeException | AssertionError ignored) {
                    // never made, or gone already
                }
            }
        }
    }

    private static String findIp() {
        for (String candidate : List.of("/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip", "/bin/ip")) {
            if (Files.isExecutable(Path.of(candidate))) {
                return candidate;
            }
        }
        return SpawnedProcess.onPath("ip").map(Path::toString).orElseThrow(() -> new AssertionError(
                "iproute2's ip is not installed: the tests across network namespaces need it (apt-get install"
                        + " iproute2; ./jspin test installs it)"));
    }

    /** Runs an {@code ip} command to its end; @return its output; fails with its error output. */
    private static String run(String... command) {
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        try {
            Process p = pb.start();
            p.getOutputStream().close();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(20, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError(String.join(" ", command) + " did not finish in 20 s");
            }
            if (p.exitValue() != 0) {
                throw new AssertionError(String.join(" ", command) + " failed (" + p.exitValue() + "): " + out.strip()
                        + (out.contains("Operation not permitted") ? " (network namespaces need root)" : ""));
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted running " + String.join(" ", command), e);
        }
    }
}
