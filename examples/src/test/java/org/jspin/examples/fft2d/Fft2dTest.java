package org.jspin.examples.fft2d;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.jspin.datatype.json.DatatypeJson;
import org.jspin.error.MpiException;
import org.jspin.mpi.MpiOptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** fft2d: the transpose types are DDTBench's, and the transform is right on both backends. */
class Fft2dTest {
    private static Path layouts() {
        String p = System.getProperty("jspin.shared");
        return (p != null ? Path.of(p) : Path.of("..", "..", "shared")).resolve("layouts");
    }

    @ParameterizedTest(name = "P = {0}, N = {1}")
    @CsvSource({"2, 256", "4, 512", "32, 1024"})
    void theReceiveTypeIsTheFft2dLayoutOfDdtBench(int p, int n) throws IOException {
        String file = Files.readString(layouts().resolve("fft2d_recv_P" + p + "_N" + n + ".json"));
        assertEquals(DatatypeJson.write(DatatypeJson.parse(file)), DatatypeJson.write(Transpose.recv(n, p)));
    }

    @ParameterizedTest(name = "{0} ranks, N = {1}, {2}")
    @CsvSource({"1, 8, host", "2, 8, host", "4, 16, host", "8, 32, host", "2, 16, sim", "4, 32, sim", "4, 64, host"})
    void theTransformMatchesTheReference(int ranks, int n, String backend) {
        Fft2d.Result r = Fft2d.runLocal(ranks, MpiOptions.defaults().withBackend(backend), new Fft2d.Params(n, 2, true));
        assertTrue(r.correct(), "error " + r.maxAbsError() + " against " + r.checkedAgainst());
        assertEquals(n <= Fft2d.DIRECT_LIMIT ? "a direct DFT" : "a serial FFT", r.checkedAgainst());
        assertTrue(r.maxAbsError() < 1e-9, "error " + r.maxAbsError());
    }

    @ParameterizedTest(name = "N = {0} on {1} ranks")
    @CsvSource({"12, 2", "8, 3"})
    void aSizeTheRanksCannotShareIsRefused(int n, int ranks) {
        Exception e = assertThrows(Exception.class,
                () -> Fft2d.runLocal(ranks, MpiOptions.defaults(), new Fft2d.Params(n, 1, true)));
        Throwable t = e;
        while (!(t instanceof MpiException) && t.getCause() != null) {
            t = t.getCause();
        }
        assertTrue(t.getMessage().contains(Integer.toString(n)), t.getMessage());
    }
}
