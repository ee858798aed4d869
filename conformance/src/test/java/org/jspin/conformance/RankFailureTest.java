package org.jspin.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What a job reports when a rank's body fails is the same on every target, whether its ranks are
 * threads or processes: the first failure, naming its rank, in its error class (ERR_OTHER and
 * its class and message for anything but an MpiException), the others suppressed on it.
 */
class RankFailureTest {
    @ParameterizedTest(name = "{0}")
    @MethodSource("org.jspin.conformance.Targets#targets")
    void aRanksMpiExceptionKeepsItsClassAndNamesTheRank(Target target) {
        MpiException e = assertThrows(MpiException.class, () -> target.run(3, mpi -> {
            if (mpi.rank() == 2) {
                throw new MpiException(ErrorClass.ERR_TRUNCATE, "truncated on purpose");
            }
            mpi.world().barrier(); // fails once rank 2 has left
        }));
        assertEquals(ErrorClass.ERR_TRUNCATE, e.errorClass(), e.toString());
        assertEquals("rank 2: truncated on purpose", e.reason());
        assertEquals(2, e.getSuppressed().length, "the two survivors' failures");
        for (Throwable s : e.getSuppressed()) {
            assertEquals(ErrorClass.ERR_PROC_FAILED, assertInstanceOf(MpiException.class, s).errorClass(), s.toString());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("org.jspin.conformance.Targets#targets")
    void anyOtherThrowableIsErrOtherWithItsClassAndMessage(Target target) {
        MpiException e = assertThrows(MpiException.class, () -> target.run(2, mpi -> {
            if (mpi.rank() == 1) {
                throw new IllegalStateException("failed on purpose");
            }
        }));
        assertEquals(ErrorClass.ERR_OTHER, e.errorClass(), e.toString());
        assertEquals("rank 1: java.lang.IllegalStateException: failed on purpose", e.reason());
        Throwable rank = e.getCause();
        assertEquals("java.lang.IllegalStateException: failed on purpose", rank.getCause().toString());
    }

    /** A test that goes on after a failed run (a worker replays the failure to get to the next run). */
    @ParameterizedTest(name = "{0}")
    @MethodSource("org.jspin.conformance.Targets#targets")
    void aRunAfterAFailedOneStartsAfresh(Target target) {
        MpiException e = assertThrows(MpiException.class, () -> target.run(2, mpi -> {
            if (mpi.rank() == 0) {
                throw new MpiException(ErrorClass.ERR_ARG, "the first run fails");
            }
            mpi.world().barrier();
        }));
        assertEquals(ErrorClass.ERR_ARG, e.errorClass(), e.toString());
        target.run(2, mpi -> mpi.world().barrier());
    }
}
