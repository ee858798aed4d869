package org.jspin.mpi;

import static org.jspin.mpi.Expect.error;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import org.jspin.datatype.Datatype;
import org.jspin.datatype.cursor.TypeCursor;
import org.jspin.error.ErrorClass;
import org.jspin.mpi.op.Ops;
import org.junit.jupiter.api.Test;

/** The argument rules alone, against a NIC that only says whether it reaches a buffer. */
class CommArgumentsTest {
    private final RecordingNic nic = new RecordingNic();
    private final CommArguments args = new CommArguments(nic, 4);

    @Test
    void ranksAreInTheCommunicatorOrProcNullWhereAllowed() {
        assertDoesNotThrow(() -> args.checkRank(3, "destination", false));
        assertDoesNotThrow(() -> args.checkRank(Comm.PROC_NULL, "destination", true));
        error(ErrorClass.ERR_RANK, () -> args.checkRank(4, "destination", true), "destination", "[0, 4)",
                "PROC_NULL", "got 4");
        error(ErrorClass.ERR_RANK, () -> args.checkRank(Comm.PROC_NULL, "rank", false), "got " + Comm.PROC_NULL);
        assertDoesNotThrow(() -> args.checkSource(Comm.ANY_SOURCE));
        error(ErrorClass.ERR_RANK, () -> args.checkSource(-7), "source", "-7");
    }

    @Test
    void tagsAreNonNegativeOrAnyTagWhereAllowed() {
        assertDoesNotThrow(() -> CommArguments.checkTag(Comm.ANY_TAG, true));
        error(ErrorClass.ERR_TAG, () -> CommArguments.checkTag(Comm.ANY_TAG, false), "got " + Comm.ANY_TAG);
        error(ErrorClass.ERR_TAG, () -> CommArguments.checkTag(-5, true), "ANY_TAG", "-5");
    }

    @Test
    void rootsAndOperatorsAreChecked() {
        error(ErrorClass.ERR_ROOT, () -> args.checkRoot(4), "[0, 4)", "got 4");
        assertDoesNotThrow(() -> args.checkRoot(0));
        error(ErrorClass.ERR_OP, () -> CommArguments.checkOp(null, 1, Datatype.INT), "operator");
        error(ErrorClass.ERR_COUNT, () -> CommArguments.checkOp(Ops.SUM, -1, Datatype.INT), "-1");
    }

    @Test
    void countsAndTypesMustBeUsable() {
        error(ErrorClass.ERR_COUNT, () -> CommArguments.checkCountAndType(-3, Datatype.INT), "-3");
        error(ErrorClass.ERR_TYPE, () -> CommArguments.checkCountAndType(1, null), "null");
        error(ErrorClass.ERR_TYPE, () -> CommArguments.checkCountAndType(1, Datatype.contiguous(2, Datatype.INT)),
                "not committed");
    }

    @Test
    void aCursorNeedsABufferThatHoldsTheTypeMap() {
        MemorySegment eight = MemorySegment.ofArray(new byte[8]);
        TypeCursor c = args.sendCursor(eight, 0, 2, Datatype.INT);
        assertEquals(8, c.total());
        error(ErrorClass.ERR_BUFFER, () -> args.sendCursor(eight, 0, 3, Datatype.INT), "send buffer",
                "does not hold the type map");
        error(ErrorClass.ERR_BUFFER, () -> args.receiveCursor(null, 0, 1, Datatype.INT), "receive buffer", "null");
        error(ErrorClass.ERR_BUFFER, () -> args.receiveCursor(eight.asReadOnly(), 0, 1, Datatype.INT), "read-only");
        assertDoesNotThrow(() -> args.receiveCursor(eight.asReadOnly(), 0, 0, Datatype.INT), "nothing is written");
    }

    @Test
    void aBufferMustBeAliveAndReachable() {
        MemorySegment closed;
        try (Arena a = Arena.ofShared()) {
            closed = a.allocate(8);
        }
        error(ErrorClass.ERR_BUFFER, () -> args.sendCursor(closed, 0, 1, Datatype.INT), "closed arena");
        nic.reachable = false;
        error(ErrorClass.ERR_BUFFER, () -> args.sendCursor(MemorySegment.ofArray(new byte[4]), 0, 1, Datatype.INT),
                "progress thread cannot reach it");
        assertDoesNotThrow(() -> args.cursor("reduce", MemorySegment.ofArray(new byte[4]), 0, 1, Datatype.INT, false,
                false), "a buffer this thread uses needs no NIC");
    }
}
