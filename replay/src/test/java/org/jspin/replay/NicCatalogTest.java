package org.jspin.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.nic.sim.config.TimingConfig;
import org.jspin.replay.cost.MessageCosts;
import org.jspin.replay.cost.MessageType;
import org.junit.jupiter.api.Test;

class NicCatalogTest {
    private static final MessageType VECTOR = new MessageType("{}", 8, false);

    private record Fixed(String nic, long ns) implements MessageCosts {
        @Override public long sendCpuNs(MessageType type, long count) { return ns; }
        @Override public long sendNicNs(MessageType type, long count) { return 0; }
        @Override public long recvNicNs(MessageType type, long count) { return 0; }
        @Override public long recvCpuNs(MessageType type, long count) { return ns; }
    }

    private static final MessageCostsFactory SIM = new MessageCostsFactory() {
        @Override public String kind() { return "sim"; }
        @Override public MessageCosts create(String nic, TimingConfig timing) { return new Fixed(nic, 5); }
    };

    @Test
    void anInstalledFactoryMakesItsKindWithTheStrategy() {
        List<String> warnings = new ArrayList<>();
        MessageCosts c = new NicCatalog(List.of(SIM)).costs("sim:rw-cp", TimingConfig.PAPER, warnings::add);
        assertEquals("sim:rw-cp", c.nic());
        assertEquals(5, c.sendCpuNs(VECTOR, 1));
        assertEquals(List.of(), warnings);
    }

    @Test
    void aKindWithoutAFactoryIsPlainBytesUnderAPlainName() {
        List<String> warnings = new ArrayList<>();
        MessageCosts c = new NicCatalog(List.of(SIM)).costs("host", TimingConfig.PAPER, warnings::add);
        assertEquals("host:plain", c.nic());
        assertEquals(0, c.sendCpuNs(VECTOR, 3));
        assertEquals(1, warnings.size());
        assertTrue(warnings.getFirst().contains("no cost model for 'host'"));
        assertEquals("plain", new NicCatalog(List.of()).costs("plain", TimingConfig.PAPER, warnings::add).nic());
    }

    @Test
    void anUnknownKindIsRefusedNamingIt() {
        MpiException e = assertThrows(MpiException.class,
                () -> new NicCatalog(List.of()).costs("gpu", TimingConfig.PAPER, w -> { }));
        assertEquals(ErrorClass.ERR_ARG, e.errorClass());
        assertTrue(e.reason().contains("--nic gpu"));
    }
}
