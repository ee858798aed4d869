package org.jspin.bench.pingpong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CorePairProbeTest {
    @Test
    void twoSidesStayInStepAndOnlyTheInitiatorTimes() throws Exception {
        Path file = CorePairProbe.createFile();
        try {
            assertEquals(4096, Files.size(file));
            CompletableFuture<double[]> answering = CompletableFuture.supplyAsync(() -> {
                try (CorePairProbe p = CorePairProbe.open(file, false).warmedUp()) {
                    double[] r = new double[5];
                    for (int i = 0; i < r.length; i++) {
                        r[i] = p.roundTripNanos();
                    }
                    return r;
                }
            });
            try (CorePairProbe p = CorePairProbe.open(file, true).warmedUp()) {
                for (int i = 0; i < 5; i++) {
                    double ns = p.roundTripNanos();
                    assertTrue(ns > 0 && ns < 1e8, "a round trip of " + ns + " ns");
                }
            }
            for (double v : answering.get(30, TimeUnit.SECONDS)) {
                assertTrue(Double.isNaN(v), "the answering side does not time: " + v);
            }
        } finally {
            Files.deleteIfExists(file);
        }
    }

    @Test
    void aSideNobodyAnswersFailsRatherThanHangs() throws Exception {
        Path file = CorePairProbe.createFile();
        try (CorePairProbe p = CorePairProbe.open(file, true, TimeUnit.MILLISECONDS.toNanos(50))) {
            MpiException e = assertThrows(MpiException.class, p::roundTripNanos);
            assertEquals(ErrorClass.ERR_OTHER, e.errorClass());
            assertTrue(e.getMessage().contains("did not answer the cross-core probe within 50 ms"), e.getMessage());
        } finally {
            Files.deleteIfExists(file);
        }
    }

    @Test
    void twoPinnedThreadsOfThisJvm() {
        int last = Runtime.getRuntime().availableProcessors() - 1;
        double ns = CorePairProbe.betweenCpus(0, last, 3);
        assertTrue(ns > 0 && ns < 1e8, "a round trip of " + ns + " ns between CPUs 0 and " + last);
    }

    @Test
    void aCpuOutOfRangeIsNamed() {
        MpiException e = assertThrows(MpiException.class, () -> CorePairProbe.betweenCpus(0, 5000, 1));
        assertEquals(ErrorClass.ERR_ARG, e.errorClass());
        assertTrue(e.getMessage().contains("5000"), e.getMessage());
    }

    @Test
    void aFileThatIsNotThereIsNamed() {
        Path missing = Path.of(System.getProperty("java.io.tmpdir"), "jspin-no-such-probe-file");
        MpiException e = assertThrows(MpiException.class, () -> CorePairProbe.open(missing, false));
        assertEquals(ErrorClass.ERR_OTHER, e.errorClass());
        assertTrue(e.getMessage().contains(missing.toString()), e.getMessage());
    }
}
