package org.jspin.nic.sim.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The sim's settings: read once, checked once, every bad value named in an ERR_ARG. */
class ConfigTest {
    @TempDir
    Path dir;

    @Test
    void theVariablesSpecSetsTheSimAndTheClock() {
        SimConfig c = SimConfig.parse("strategy=seek, hpus=8 ,packet=1024,preset=banked,memory-latency=20,seed=3");
        assertEquals("seek", c.strategy());
        assertEquals(8, c.hpus());
        assertEquals(1024, c.packetBytes());
        assertEquals(3, c.seed());
        assertEquals("banked", c.timing().preset());
        assertEquals(20, c.timing().get(TimingParam.MEMORY_LATENCY));
        assertEquals(16, c.timing().get(TimingParam.MEMORY_BANKS), "the rest of the banked preset");
        assertEquals(SimConfig.DEFAULT, SimConfig.parse(null));
        assertEquals(SimConfig.DEFAULT, SimConfig.parse(" "));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = ';', value = {
        "strategy=fastest; fastest",
        "hpus=0; 0",
        "packet=abc; abc",
        "delta-r=1000; 1000",
        "colour=red; colour",
        "justakey; justakey",
        "memory-latency=-1; -1",
        "preset=huge; huge"})
    void aBadSettingIsRefusedNamingIt(String spec, String named) {
        MpiException e = assertThrows(MpiException.class, () -> SimConfig.parse(spec));
        assertEquals(ErrorClass.ERR_ARG, e.errorClass());
        assertTrue(e.getMessage().contains(named), e.getMessage());
    }

    @Test
    void aFileStartsFromItsPresetAndOverridesWin() throws IOException {
        Path f = Files.writeString(dir.resolve("t.properties"), "preset=banked\nline-rate=400\n# a comment\n");
        TimingConfig t = TimingConfig.load(f);
        assertEquals("banked", t.preset());
        assertEquals(400, t.get(TimingParam.LINE_RATE));
        assertEquals(10, t.get(TimingParam.MEMORY_LATENCY));
        TimingConfig o = t.with("line-rate=100");
        assertEquals(100, o.get(TimingParam.LINE_RATE));
        assertTrue(o.describe().get("line-rate").contains("set"), "an override says so: " + o.describe());
        assertTrue(TimingConfig.PAPER.describe().get("line-rate").contains("PsPIN"), "a default names its source");
        MpiException missing = assertThrows(MpiException.class, () -> TimingConfig.load(dir.resolve("nope")));
        assertTrue(missing.getMessage().contains("nope"), missing.getMessage());
        Path bad = Files.writeString(dir.resolve("bad.properties"), "hpu-clock=fast\n");
        MpiException e = assertThrows(MpiException.class, () -> TimingConfig.load(bad));
        assertTrue(e.getMessage().contains("hpu-clock") && e.getMessage().contains("fast"), e.getMessage());
    }

    @Test
    void everyParameterHasASourceAndItsDefaultIsInRange() {
        for (TimingParam p : TimingParam.values()) {
            assertTrue(!p.source().isBlank(), p.key());
            assertTrue(p.defaultValue() >= p.min() && p.defaultValue() <= p.max(), p.key());
            assertEquals(p, TimingParam.byKey(p.key()));
        }
    }
}
