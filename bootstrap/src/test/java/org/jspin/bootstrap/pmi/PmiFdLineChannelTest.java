package org.jspin.bootstrap.pmi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.EOFException;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The {@code PMI_FD} transport (libc through java.lang.foreign) over a Unix socket pair. */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class PmiFdLineChannelTest {
    private static long in(long millis) {
        return System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
    }

    @Test
    void linesSurviveFragmentsBatchesAndGrowth() throws IOException {
        int[] pair = NativeSocketPair.open();
        try (FdLineChannel a = new FdLineChannel(pair[0]); FdLineChannel b = new FdLineChannel(pair[1])) {
            String big = "x".repeat(60_000);
            a.writeFully("cmd=fo".getBytes(StandardCharsets.US_ASCII), in(1000));
            a.writeFully("o\ncmd=bar\n\ncmd=".getBytes(StandardCharsets.US_ASCII), in(1000));
            a.writeLine("baz " + big, in(5000));
            a.writeLine("cmd=last", in(1000));
            assertEquals("cmd=foo", b.readLine(in(1000)));
            assertEquals("cmd=bar", b.readLine(in(1000)));
            assertEquals("", b.readLine(in(1000)));
            assertEquals("cmd=baz " + big, b.readLine(in(5000)));
            assertEquals("cmd=last", b.readLine(in(1000)));
            b.writeLine("cmd=reply", in(1000));
            assertEquals("cmd=reply", a.readLine(in(1000)));
        }
    }

    @Test
    void aReadWithNothingToReadTimesOutAtItsDeadline() throws IOException {
        int[] pair = NativeSocketPair.open();
        try (FdLineChannel a = new FdLineChannel(pair[0]); FdLineChannel b = new FdLineChannel(pair[1])) {
            long start = System.nanoTime();
            assertThrows(SocketTimeoutException.class, () -> b.readLine(in(200)));
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertTrue(millis >= 150 && millis < 5000, "gave up after " + millis + " ms");
            // the channel is still in step: a later line arrives whole
            a.writeLine("cmd=late", in(1000));
            assertEquals("cmd=late", b.readLine(in(1000)));
        }
    }

    @Test
    void aPeerThatClosesIsEndOfStream() throws IOException {
        int[] pair = NativeSocketPair.open();
        try (FdLineChannel b = new FdLineChannel(pair[1])) {
            try (FdLineChannel a = new FdLineChannel(pair[0])) {
                a.writeFully("cmd=half".getBytes(StandardCharsets.US_ASCII), in(1000));
            }
            EOFException e = assertThrows(EOFException.class, () -> b.readLine(in(1000)));
            assertTrue(e.getMessage().contains("PMI_FD=" + pair[1] + " was closed by the process manager in the"
                    + " middle of a line"), e.getMessage());
        }
    }

    @Test
    void aLineWithoutEndIsRejectedOnceTooLong() throws IOException {
        int[] pair = NativeSocketPair.open();
        try (FdLineChannel a = new FdLineChannel(pair[0]); FdLineChannel b = new FdLineChannel(pair[1])) {
            byte[] chunk = "y".repeat(8192).getBytes(StandardCharsets.US_ASCII);
            Thread writer = Thread.ofPlatform().daemon().start(() -> {
                try {
                    for (int i = 0; i < 10; i++) {
                        a.writeFully(chunk, in(5000));
                    }
                } catch (IOException e) {
                    // the reader gave up first
                }
            });
            IOException e = assertThrows(IOException.class, () -> b.readLine(in(5000)));
            assertTrue(e.getMessage().contains("longer than " + BufferedLineChannel.MAX_LINE), e.getMessage());
            writer.interrupt();
        }
    }

    @Test
    void aDescriptorThatIsNotOpenIsReportedByPollWriteAndClose() throws IOException {
        FdLineChannel bad = new FdLineChannel(1_000_000);
        IOException read = assertThrows(IOException.class, () -> bad.readLine(in(1000)));
        assertTrue(read.getMessage().contains("PMI_FD=1000000 is not an open file descriptor"), read.getMessage());
        IOException write = assertThrows(IOException.class, () -> bad.writeLine("cmd=x", in(1000)));
        assertEquals("write on PMI_FD=1000000 failed: Bad file descriptor (errno 9)", write.getMessage());
        IOException close = assertThrows(IOException.class, bad::close);
        assertEquals("close on PMI_FD=1000000 failed: Bad file descriptor (errno 9)", close.getMessage());
    }

    @Test
    void aClosedChannelRefusesToReadAgain() throws IOException {
        int[] pair = NativeSocketPair.open();
        FdLineChannel a = new FdLineChannel(pair[0]);
        try (FdLineChannel b = new FdLineChannel(pair[1])) {
            a.close();
            a.close();
            IOException e = assertThrows(IOException.class, () -> a.readLine(in(100)));
            assertTrue(e.getMessage().contains("already closed"), e.getMessage());
            assertThrows(EOFException.class, () -> b.readLine(in(1000)));
        }
    }
}
