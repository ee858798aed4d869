package org.jspin.examples.particles;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jspin.mpi.MpiOptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** particles: every exchange's checksums match on both sides, on both backends. */
class ParticlesTest {
    @ParameterizedTest(name = "{0} ranks, {1} particles, {2}")
    @CsvSource({"2, 500, host", "4, 2000, host", "3, 1000, sim", "4, 3000, sim", "1, 100, host"})
    void everyExchangeArrivesIntact(int ranks, int size, String backend) {
        Particles.Result r = Particles.runLocal(ranks, MpiOptions.defaults().withBackend(backend),
                new Particles.Params(size, 10, 0.2, 11));
        assertEquals(0, r.mismatches(), "checksums");
        assertTrue(r.particlesMoved() >= 10L * ranks, "every exchange moved at least one particle");
        assertTrue(r.traffic().bytesMoved() >= r.particlesMoved() * Particles.BYTES * 0.99 || ranks == 1,
                "the particles' bytes travelled: " + r.traffic().bytesMoved());
    }

    @ParameterizedTest(name = "seed {0}")
    @CsvSource({"1", "2", "3"})
    void aSubsetIsDistinctSortedAndInRange(long seed) {
        long[] s = Particles.subset(new java.util.SplittableRandom(seed), 100, 30);
        assertEquals(30, s.length);
        for (int i = 1; i < s.length; i++) {
            assertTrue(s[i] > s[i - 1] && s[i] < 100 && s[0] >= 0);
        }
    }
}
