package org.jspin.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.jspin.bench.anchors.AnchorCase;
import org.jspin.bench.anchors.PackVersus;
import org.junit.jupiter.api.Test;

class AnchorsFormatTest {
    @Test
    void figuresHaveTwoDecimalsAndNoneIsADash() {
        assertEquals("1.23", AnchorsFormat.fmt(1.2345));
        assertEquals("-", AnchorsFormat.fmt(null));
        assertEquals("-", AnchorsFormat.fmt(Double.NaN));
        assertEquals("0.50 2.00", AnchorsFormat.list(List.of(0.5, 2.0)));
        assertEquals("-", AnchorsFormat.list(List.of()));
    }

    @Test
    void aCountedMedianSaysHowManyFiguresItIsOf() {
        assertEquals("2.00 (3)", AnchorsFormat.counted(List.of(3.0, 1.0, 2.0)));
        assertEquals("1.50 (2)", AnchorsFormat.counted(List.of(1.0, 2.0)));
        assertEquals("- (0)", AnchorsFormat.counted(List.of()));
    }

    @Test
    void theAnchorsLabelsAreShownByTheMpisNames() {
        assertEquals("Open MPI", AnchorsFormat.display(AnchorCase.OPEN_MPI));
        assertEquals("Open MPI", AnchorsFormat.display(PackVersus.OPEN_MPI));
        assertEquals("MPICH", AnchorsFormat.display(AnchorCase.MPICH));
        assertEquals("MPICH", AnchorsFormat.display(PackVersus.MPICH));
        assertEquals("ompi-shm", AnchorsFormat.display("ompi-shm"));
    }
}
