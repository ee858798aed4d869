package org.jspin.nic.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** Linux CPU lists, as /sys/devices/system/cpu/online writes them. */
class HostCpusTest {
    @ParameterizedTest(name = "''{0}'' names {1}")
    @CsvSource(delimiter = ';', value = {"0-1; 2", "0; 1", "0-3,6; 5", "0-1,4-5,7; 5", "x-y; 0", "''; 0"})
    void countsTheCpusOfAList(String list, int cpus) {
        assertEquals(cpus, HostCpus.parse(list));
        assertEquals(cpus, HostCpus.parse(list + "\n"), "as the file ends, with a newline");
    }

    @Test
    void neverFewerThanTheJvmSees() {
        assertTrue(HostCpus.count() >= Runtime.getRuntime().availableProcessors());
    }
}
