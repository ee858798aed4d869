package %PACKAGE%;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.atomic.AtomicLong;

import org.jspin.mpi.LocalRanks;
import org.jspin.mpi.MpiOptions;
import org.junit.jupiter.api.Test;

/** The ring on four ranks, as threads of this JVM. */
class MainTest {
    @Test
    void theTokenComesBackWithEveryRankAdded() {
        AtomicLong atRankZero = new AtomicLong(-1);
        LocalRanks.run(4, MpiOptions.defaults(), 60, mpi -> {
            long token = Main.ring(mpi.world());
            if (mpi.world().rank() == 0) {
                atRankZero.set(token);
            }
        });
        assertEquals(0 + 1 + 2 + 3, atRankZero.get());
    }
}
