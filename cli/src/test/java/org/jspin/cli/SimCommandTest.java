package org.jspin.cli;

import static org.jspin.cli.InProcess.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import com.fasterxml.jackson.databind.JsonNode;

import org.jspin.datatype.json.DatatypeJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code jspin sim}, run in-process as the shell runs it. */
class SimCommandTest {
    /** 4096 blocks of 64 B at a stride of 128 B: 256 KiB, 128 packets of 2 KiB, 32 blocks each. */
    private static final String VECTOR = "{\"vector\": {\"count\": 4096, \"blocklength\": 8, \"stride\": 16, \"of\": \"double\"}}";
    private static final String STRUCT = "{\"struct\": {\"blocklengths\": [1, 3], \"displacements_bytes\": [0, 8],"
            + " \"types\": [\"int\", \"double\"]}}";

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"specialized", "hpu-local", "ro-cp", "rw-cp", "iovec", "seek", "auto"})
    void jsonHasTheConfigurationAndEveryCounterAndTheBufferVerifies(String strategy) throws IOException {
        Path f = Files.writeString(dir.resolve("v.json"), VECTOR);
        InProcess.Run r = run("sim", "--type", f.toString(), "--strategy", strategy, "--verify", "--json", "--ooo-window", "4");
        assertEquals(0, r.status(), r.err());
        JsonNode o = DatatypeJson.mapper().readTree(r.out());
        assertEquals(strategy, o.get("config").get("strategy").asText());
        assertEquals(4, o.get("config").get("ooo_window").asInt());
        assertTrue(o.get("identical").asBoolean(), r.out());
        JsonNode recv = o.get("receive");
        assertEquals(strategy.equals("auto") ? "specialized" : strategy, recv.get("strategy").asText());
        assertEquals(128, recv.get("packets").asLong());
        assertEquals(262_144, recv.get("dma_write_bytes").asLong());
        assertEquals(4096, recv.get("blocks_walked").asLong());
        for (String counter : new String[] {"payload_handlers", "dma_writes", "catch_up_blocks", "levels_entered",
                "checkpoint_bytes_copied", "checkpoints_made", "checkpoints_reused", "resets", "iovec_refills",
                "divisions", "search_steps", "nic_memory_bytes", "fallback"}) {
            assertTrue(recv.has(counter), counter + " in " + recv);
        }
        assertEquals(262_144, o.get("send").get("dma_read_bytes").asLong());
    }

    @Test
    void aLossyLinkStillVerifiesAndALinkPastItsRetransmitsFailsSayingWhich() throws IOException {
        Path f = Files.writeString(dir.resolve("v.json"), VECTOR);
        InProcess.Run r = run("sim", "--type", f.toString(), "--strategy", "rw-cp", "--verify", "--json",
                "--drop", "0.1", "--duplicate", "0.1", "--seed", "3");
        assertEquals(0, r.status(), r.err());
        JsonNode o = DatatypeJson.mapper().readTree(r.out());
        assertEquals(0.1, o.get("config").get("drop").asDouble());
        assertTrue(o.get("identical").asBoolean(), r.out());
        JsonNode recv = o.get("receive");
        assertEquals(128, recv.get("payload_handlers").asLong(), "one handler per packet");
        assertTrue(recv.get("packets_dropped").asLong() > 0, recv.toString());
        assertEquals(recv.get("packets_dropped").asLong(), recv.get("retransmissions").asLong());
        assertTrue(recv.get("duplicates_discarded").asLong() > 0, recv.toString());

        InProcess.Run lost = run("sim", "--type", f.toString(), "--drop", "0.9", "--retransmits", "0");
        assertTrue(lost.status() != 0, lost.out());
        assertTrue(lost.err().contains("the link gives up after 0 retransmissions"), lost.err());
        InProcess.Run bad = run("sim", "--type", f.toString(), "--drop", "1.5");
        assertEquals(2, bad.status(), bad.out());
        assertTrue(bad.err().contains("1.5"), bad.err());
    }

    @Test
    void aStrategyThatDoesNotApplyExitsNonZeroSayingSo() throws IOException {
        Path f = Files.writeString(dir.resolve("s.json"), STRUCT);
        InProcess.Run r = run("sim", "--type", f.toString(), "--count", "100", "--strategy", "specialized");
        assertEquals(2, r.status(), r.out());
        assertTrue(r.err().contains("not applicable"), r.err());
        InProcess.Run auto = run("sim", "--type", f.toString(), "--count", "100", "--verify");
        assertEquals(0, auto.status(), auto.err());
        assertTrue(auto.out().contains("rw-cp") && auto.out().contains("identical"), auto.out());
    }

    @Test
    void severalTypesAndStrategiesGiveOneLineEachAndANotApplicableOneDoesNotStopTheOthers() throws IOException {
        Path types = Files.createDirectory(dir.resolve("types"));
        Files.writeString(types.resolve("a-vector.json"), VECTOR);
        Files.writeString(types.resolve("b-struct.json"), STRUCT);
        InProcess.Run r = run("sim", "--type", types.toString(), "--count", "3", "--strategy", "specialized,rw-cp,seek", "--verify");
        assertEquals(0, r.status(), r.err());
        String[] lines = r.out().split("\n");
        assertEquals(1 + 2 * 3, lines.length, r.out());
        assertTrue(lines[4].startsWith("b-struct") && lines[4].contains("not applicable"), lines[4]);
        assertTrue(lines[5].contains("rw-cp") && lines[5].endsWith("identical"), lines[5]);
        InProcess.Run j = run("sim", "--type", types.toString(), "--strategy", "rw-cp,seek", "--json");
        assertEquals(4, j.out().split("\n").length, j.out());
        for (String line : j.out().split("\n")) {
            assertTrue(DatatypeJson.mapper().readTree(line).get("receive").has("search_steps"), line);
        }
    }

    @Test
    void printConfigNamesEverySourceAndBadValuesAreRefused() {
        InProcess.Run r = run("sim", "--print-config", "--hpus", "16");
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().contains("hpus               16") && r.out().contains("PsPIN"), r.out());
        InProcess.Run bad = run("sim", "--print-config", "--delta-r", "1000");
        assertEquals(2, bad.status());
        assertTrue(bad.err().contains("delta-r") && bad.err().contains("1000"), bad.err());
    }
}
