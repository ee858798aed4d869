package org.jspin.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

import org.jspin.bench.NameFilter;
import org.jspin.bench.anchors.FloorRounds;
import org.junit.jupiter.api.Test;

/**
 * The reports of {@code jspin bench anchors}, byte for byte, on fixed rounds ({@link AnchorsFixtures}):
 * the expected text is what the command printed for them before its reports became classes of their own.
 */
class AnchorsReportsTest {
    private static final PingPongAnchorsReport.Congestion BBR_RENO = new PingPongAnchorsReport.Congestion("bbr",
            "reno");

    private static String expected(String name) throws IOException {
        try (InputStream in = AnchorsReportsTest.class.getResourceAsStream("anchors/" + name + ".txt")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static String printed(Consumer<PrintWriter> report) {
        StringWriter s = new StringWriter();
        report.accept(new PrintWriter(s));
        return s.toString();
    }

    @Test
    void thePingPongTableOverTcpNamesEachSidesCongestionControl() throws IOException {
        assertEquals(expected("print-netty"), printed(out -> PingPongAnchorsReport.print(out,
                AnchorsFixtures.versus(), NameFilter.of(null), false, BBR_RENO)));
    }

    @Test
    void thePingPongTableOverSharedMemoryHasNoCongestionLine() throws IOException {
        assertEquals(expected("print-shm"), printed(out -> PingPongAnchorsReport.print(out,
                AnchorsFixtures.versus(), NameFilter.of(null), true, null)));
    }

    @Test
    void onlyTheFilteredCasesArePrinted() throws IOException {
        assertEquals(expected("print-filtered"), printed(out -> PingPongAnchorsReport.print(out,
                AnchorsFixtures.versus(), NameFilter.of("latency|vector"), true, null)));
    }

    @Test
    void jspinOnTheKernelsDefaultIsSaidSo() {
        String out = printed(o -> PingPongAnchorsReport.print(o, AnchorsFixtures.versus(), NameFilter.of(null), false,
                new PingPongAnchorsReport.Congestion("cubic", "system")));
        assertTrue(out.contains("the kernel's default (cubic); jspin's connections within this host run the kernel's"
                + " default too (-Djspin.netty.congestion)"), out);
    }

    @Test
    void theFloorsRounds() throws IOException {
        assertEquals(expected("floor"), printed(out -> PingPongAnchorsReport.floor(out, AnchorsFixtures.floors(),
                NameFilter.of(null))));
        assertEquals("", printed(out -> PingPongAnchorsReport.floor(out, new FloorRounds(), NameFilter.of(null))),
                "no floor without a round of it");
    }

    @Test
    void theBoundRoundsByTheMachinesState() throws IOException {
        assertEquals(expected("bystate"), printed(out -> PingPongAnchorsReport.byState(out, AnchorsFixtures.byState(),
                NameFilter.of(null))));
    }

    @Test
    void thePackTable() throws IOException {
        assertEquals(expected("pack"), printed(out -> PackAnchorsReport.print(out, AnchorsFixtures.packVersus())));
    }
}
