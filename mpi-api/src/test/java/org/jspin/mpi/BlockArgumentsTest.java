package org.jspin.mpi;

import static org.jspin.mpi.Expect.error;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;

import java.lang.foreign.MemorySegment;

import org.jspin.datatype.Datatype;
import org.jspin.error.ErrorClass;
import org.junit.jupiter.api.Test;

/** The per-rank block checks of the collectives, for a communicator of three ranks. */
class BlockArgumentsTest {
    private final BlockArguments blocks = new BlockArguments(new CommArguments(new RecordingNic(), 3));
    private final MemorySegment twelve = MemorySegment.ofArray(new byte[12]);

    @Test
    void equalBlocksMustAllFit() {
        assertDoesNotThrow(() -> blocks.checkEqual("gather receive", "receive", twelve, 1, Datatype.INT, true));
        error(ErrorClass.ERR_BUFFER, () -> blocks.checkEqual("gather receive", "receive", twelve, 2, Datatype.INT,
                true), "gather receive");
        error(ErrorClass.ERR_COUNT, () -> blocks.checkEqual("gather receive", "receive", twelve, -1, Datatype.INT,
                true), "receive count", "-1");
        error(ErrorClass.ERR_COUNT, () -> blocks.checkEqual("gather receive", "receive", twelve, Long.MAX_VALUE,
                Datatype.INT, true), "count " + Long.MAX_VALUE, "each of 3 ranks");
    }

    @Test
    void variedBlocksNeedOneCountAndDisplacementPerRank() {
        assertDoesNotThrow(() -> blocks.checkVaried("gatherv", twelve, new long[] {1, 1, 1}, new long[] {2, 1, 0},
                Datatype.INT, true));
        error(ErrorClass.ERR_ARG, () -> blocks.checkVaried("gatherv", twelve, new long[] {1, 1}, new long[] {0, 1},
                Datatype.INT, true), "one entry per rank (3)", "got 2 and 2");
        error(ErrorClass.ERR_ARG, () -> blocks.checkVaried("gatherv", twelve, null, new long[3], Datatype.INT, true),
                "null");
        error(ErrorClass.ERR_COUNT, () -> blocks.checkVaried("gatherv", twelve, new long[] {1, -4, 1}, new long[3],
                Datatype.INT, true), "rank 1", "-4");
        error(ErrorClass.ERR_ARG, () -> blocks.checkVaried("gatherv", twelve, new long[] {1, 1, 1},
                new long[] {0, Long.MAX_VALUE, 0}, Datatype.INT, true), "displacement " + Long.MAX_VALUE, "overflows");
        error(ErrorClass.ERR_BUFFER, () -> blocks.checkVaried("gatherv", twelve, new long[] {1, 1, 1},
                new long[] {0, 1, 3}, Datatype.INT, true), "gatherv (rank 2)");
    }

    @Test
    void typedBlocksNeedATypePerRank() {
        Datatype[] ints = {Datatype.INT, Datatype.INT, Datatype.INT};
        assertDoesNotThrow(() -> blocks.checkTyped("alltoallw send", twelve, new long[] {1, 1, 1},
                new long[] {0, 4, 8}, ints, false));
        error(ErrorClass.ERR_ARG, () -> blocks.checkTyped("alltoallw send", twelve, new long[3], new long[3],
                new Datatype[2], false), "types", "got 2");
        error(ErrorClass.ERR_TYPE, () -> blocks.checkTyped("alltoallw send", twelve, new long[3], new long[3],
                new Datatype[] {Datatype.INT, null, Datatype.INT}, false), "rank 1");
        error(ErrorClass.ERR_BUFFER, () -> blocks.checkTyped("alltoallw send", twelve, new long[] {1, 1, 1},
                new long[] {0, 4, 9}, ints, false), "alltoallw send (rank 2)");
    }
}
