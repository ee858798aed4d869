package org.jspin.bench.anchors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.OptionalDouble;
import java.util.Set;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.junit.jupiter.api.Test;

/** The anchors' RESULT lines, as run.sh prints them, and what is not one. */
class AnchorResultsTest {
    @Test
    void readsEveryResultLineByLabelAndTestAndIgnoresTheRest() {
        AnchorResults r = AnchorResults.parse(List.of(
                "mpicc: warning: something the compiler said",
                "RESULT ompi-tcp lat_1B 9.439 us",
                "  RESULT ompi-tcp ppbw_4096KiB 3.568 GB/s",
                "RESULT mpich-tcp lat_1B 6.144 us",
                ""));
        assertEquals(Set.of("ompi-tcp", "mpich-tcp"), r.labels());
        assertEquals(OptionalDouble.of(9.439), r.value("ompi-tcp", "lat_1B"));
        assertEquals(OptionalDouble.of(3.568), r.value("ompi-tcp", "ppbw_4096KiB"));
        assertEquals(OptionalDouble.of(6.144), r.value("mpich-tcp", "lat_1B"));
        assertEquals(OptionalDouble.empty(), r.value("mpich-tcp", "ppbw_4096KiB"));
        assertEquals(OptionalDouble.empty(), r.value("nobody", "lat_1B"));
    }

    @Test
    void theSharedMemoryRunsLabelsCanBeReadAsTheOnesTheComparisonKeysBy() {
        AnchorResults r = AnchorResults.parse(List.of("RESULT ompi-shm lat_8B 0.34 us", "RESULT mpich-shm lat_8B 0.40 us"))
                .relabeled("ompi-shm", "ompi-tcp").relabeled("mpich-shm", "mpich-tcp");
        assertEquals(Set.of("ompi-tcp", "mpich-tcp"), r.labels());
        assertEquals(OptionalDouble.of(0.34), r.value("ompi-tcp", "lat_8B"));
        assertEquals(OptionalDouble.of(0.40), r.value("mpich-tcp", "lat_8B"));
        assertEquals(OptionalDouble.empty(), r.value("ompi-shm", "lat_8B"));
    }

    @Test
    void thePackBenchmarksLinesNameTheirTestWithItsVariant() {
        AnchorResults r = AnchorResults.parse(List.of(
                "RESULT openmpi contig4MiB memcpy 32.661",
                "RESULT openmpi vec_blk512 pack_double 33.012",
                "RESULT mpich vec_blk4 unpack_byte 2.472"));
        assertEquals(OptionalDouble.of(32.661), r.value("openmpi", "contig4MiB memcpy"));
        assertEquals(OptionalDouble.of(33.012), r.value("openmpi", "vec_blk512 pack_double"));
        assertEquals(OptionalDouble.of(2.472), r.value("mpich", "vec_blk4 unpack_byte"));
        assertEquals(OptionalDouble.empty(), r.value("openmpi", "vec_blk512"));
    }

    @Test
    void nothingPrintedIsEmpty() {
        assertTrue(AnchorResults.parse(List.of("make: *** no rule", "")).isEmpty());
    }

    @Test
    void aMalformedResultLineIsNamed() {
        MpiException shortLine = assertThrows(MpiException.class,
                () -> AnchorResults.parse(List.of("RESULT ompi-tcp lat_1B")));
        assertEquals(ErrorClass.ERR_ARG, shortLine.errorClass());
        assertTrue(shortLine.getMessage().contains("'RESULT ompi-tcp lat_1B'"), shortLine.getMessage());
        MpiException noNumber = assertThrows(MpiException.class,
                () -> AnchorResults.parse(List.of("RESULT ompi-tcp lat_1B fast us")));
        assertTrue(noNumber.getMessage().contains("'RESULT ompi-tcp lat_1B fast us'"), noNumber.getMessage());
    }
}
