package org.jspin.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspin.cli.SystemTestPrograms.RandomTraffic;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Load through {@code jspin run}, every rank a JVM with the 256 MiB heap {@link SpawnedProcess}
 * gives the launcher (and the launcher its ranks): sixteen ranks of halo2d on this machine's two
 * cores, and random traffic with checksums plus a bulk transfer between two ranks. The soak
 * variant ({@code -Djspin.soak=true}) sends 100,000 random messages and 1 GiB; the suite's, 2,000
 * and 128 MiB. Each rank reports its peak heap, thread count, direct buffers and resident set, which
 * must stay bounded.
 */
class LoadSystemTest {
    private static final boolean SOAK = Boolean.getBoolean("jspin.soak");
    /** Seconds a run may take: the suite's, or the soak's. */
    private static final int LIMIT = SOAK ? 3000 : 200;
    private static final Pattern LOAD = Pattern.compile(
            "\\[(\\d+)] load rank=\\d+ messages=(\\d+) bytes=(\\d+) mismatches=(\\d+) heapPeakMiB=(\\d+) threadsPeak=(\\d+)"
            + " directPeakMiB=(\\d+) rssPeakMiB=(\\d+)");

    private final List<SpawnedProcess> started = new ArrayList<>();

    @AfterEach
    void killEverythingStarted() {
        started.forEach(SpawnedProcess::close);
    }

    private SpawnedProcess jspin(String... args) {
        SpawnedProcess p = SpawnedProcess.start(SpawnedProcess.jspin(args), Map.of());
        started.add(p);
        return p;
    }

    @Test
    @Timeout(value = 3600, unit = TimeUnit.SECONDS) // the run's own limit (LIMIT) comes first
    void sixteenRanksOnTwoCoresRunHalo2dBitIdentical() throws InterruptedException {
        String iterations = SOAK ? "2000" : "40";
        SpawnedProcess run = jspin("run", "-n", "16", "--timeout", Integer.toString(LIMIT), "halo2d", "--size", "256",
                "--iterations", iterations);
        assertEquals(0, run.awaitExit(Duration.ofSeconds(LIMIT + 10)), run.transcript());
        assertTrue(run.outLines().stream().anyMatch(l -> l.contains("on 16 ranks")), run.transcript());
        assertTrue(run.outLines().stream().anyMatch(l -> l.contains("max abs error        0 (bit-identical to the serial run)")),
                run.transcript());
    }

    @Test
    @Timeout(value = 3600, unit = TimeUnit.SECONDS) // the run's own limit (LIMIT) comes first
    void randomMessagesAndABulkTransferArriveIntactWithBoundedHeapAndThreads() throws InterruptedException {
        int messages = SOAK ? 100_000 : 2_000;
        int bulkMiB = SOAK ? 1024 : 128;
        SpawnedProcess run = SpawnedProcess.start(SpawnedProcess.jspinFullJit("run", "-n", "2", "--timeout",
                Integer.toString(LIMIT), RandomTraffic.class.getName(), Integer.toString(messages), "20261202",
                Integer.toString(bulkMiB)), Map.of());
        started.add(run);
        assertEquals(0, run.awaitExit(Duration.ofSeconds(LIMIT + 10)), run.transcript());
        int reports = 0;
        for (String line : run.outLines()) {
            Matcher m = LOAD.matcher(line);
            if (!m.matches()) {
                continue;
            }
            reports++;
            assertEquals(messages + bulkMiB, Integer.parseInt(m.group(2)), line);
            assertEquals(0, Integer.parseInt(m.group(4)), "checksum mismatches\n" + run.transcript());
            long heapPeak = Long.parseLong(m.group(5));
            int threads = Integer.parseInt(m.group(6));
            assertTrue(heapPeak <= 256, "heap peak " + heapPeak + " MiB above the 256 MiB heap: " + line);
            assertTrue(threads <= 40, "thread peak " + threads + ": " + line);
            long direct = Long.parseLong(m.group(7));
            long rss = Long.parseLong(m.group(8));
            assertTrue(direct <= 128, "direct buffers peaked at " + direct + " MiB: " + line);
            assertTrue(rss <= 1024, "resident set peaked at " + rss + " MiB: " + line);
            if (m.group(1).equals("1")) {
                assertTrue(Long.parseLong(m.group(3)) >= (long) bulkMiB << 20, "bytes received: " + line);
            }
            System.out.println(line); // the peaks, for RELIABILITY.md
        }
        assertEquals(2, reports, run.transcript());
    }
}
