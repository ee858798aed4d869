package org.jspin.transport.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * The fabric's settings: {@code -Djspin.netty.rtsPayload} and {@code -Djspin.netty.wholeData}, a
 * byte count the fabric's packets can carry, or a clear error; {@code -Djspin.netty.flushBytes}, a
 * byte count up to 1 GiB, or a clear error; {@code -Djspin.netty.directReads},
 * true or false, or a clear error.
 */
class FabricSettingsTest {
    @Test
    void unsetIsOpenMpisFirstFragmentAndByteCountsAreTaken() {
        assertEquals(64 << 10, NettyFabric.rtsPayload(null));
        assertEquals(0, NettyFabric.rtsPayload("0"));
        assertEquals(4096, NettyFabric.rtsPayload(" 4096 "));
        assertEquals(NettyFabric.MAX_PAYLOAD, NettyFabric.rtsPayload(Integer.toString(NettyFabric.MAX_PAYLOAD)));
    }

    @ParameterizedTest(name = "''{0}''")
    @ValueSource(strings = {"-1", "64k", "", "1048577", "99999999999"})
    void anythingElseIsAnArgumentErrorNamingIt(String value) {
        assertArgumentErrorNaming("jspin.netty.rtsPayload", value, () -> NettyFabric.rtsPayload(value));
    }

    @Test
    void wholeDataIsOnePacketsWorthUnlessSet() {
        assertEquals(NettyFabric.MAX_PAYLOAD, NettyFabric.wholeData(null));
        assertEquals(0, NettyFabric.wholeData("0"));
        assertEquals(262144, NettyFabric.wholeData("262144"));
    }

    @ParameterizedTest(name = "''{0}''")
    @ValueSource(strings = {"-5", "1m", " ", "1048577"})
    void wholeDataTakesNothingButAByteCountThatFits(String value) {
        assertArgumentErrorNaming("jspin.netty.wholeData", value, () -> NettyFabric.wholeData(value));
    }

    @Test
    void flushBytesAreTwoMebibytesUnlessSet() {
        assertEquals(2 << 20, NettyFabric.flushBytes(null));
        assertEquals(0, NettyFabric.flushBytes("0"));
        assertEquals(8 << 20, NettyFabric.flushBytes(" 8388608 "));
    }

    @ParameterizedTest(name = "''{0}''")
    @ValueSource(strings = {"-1", "2m", "", "1073741825"})
    void flushBytesTakeNothingButAByteCount(String value) {
        assertArgumentErrorNaming("jspin.netty.flushBytes", value, () -> NettyFabric.flushBytes(value));
    }

    @Test
    void directReadsAreOnUnlessSetToFalse() {
        assertTrue(NettyFabric.directReads(null));
        assertTrue(NettyFabric.directReads("true"));
        assertEquals(false, NettyFabric.directReads(" FALSE "));
    }

    @ParameterizedTest(name = "''{0}''")
    @ValueSource(strings = {"", "yes", "0", "flase"})
    void directReadsTakeNothingButTrueOrFalse(String value) {
        assertArgumentErrorNaming("jspin.netty.directReads", value, () -> NettyFabric.directReads(value));
    }

    /** {@code setting} refuses {@code value} with ERR_ARG, naming the property and the value. */
    private static void assertArgumentErrorNaming(String property, String value, Executable setting) {
        MpiException e = assertThrows(MpiException.class, setting);
        assertEquals(ErrorClass.ERR_ARG, e.errorClass());
        assertTrue(e.getMessage().contains(property) && e.getMessage().contains("'" + value + "'"), e.getMessage());
    }
}
