package org.jspin.bootstrap.rendezvous;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.ProtocolException;

import org.jspin.bootstrap.SecretProof;
import org.junit.jupiter.api.Test;

class HelloTest {
    private static final byte[] NONCE = new byte[SecretProof.BYTES];

    private static String[] fields(String job, String rank, String nonce, String endpoint) {
        return new String[] {Wire.VERSION, Wire.HELLO, job, rank, nonce, endpoint};
    }

    private static String[] good() {
        return fields(Wire.encode("job 1"), "2", SecretProof.hex(NONCE), Wire.encode("h:1"));
    }

    @Test
    void aWellFormedHelloIsDecoded() throws ProtocolException {
        assertNull(Hello.problem(good()));
        Hello h = Hello.of(good());
        assertEquals("job 1", h.job());
        assertEquals(2, h.rank());
        assertArrayEquals(NONCE, h.nonce());
        assertEquals("h:1", h.endpoint());
    }

    @Test
    void theProblemWithABadHelloIsNamed() throws ProtocolException {
        assertTrue(Hello.problem(new String[] {"GET", "/"}).startsWith("not a rendezvous hello: it starts with 'GET'"));
        assertTrue(Hello.problem(new String[] {"JSPIN-RDV/1", "HELLO"}).startsWith("unsupported protocol version 'JSPIN-RDV/1'"));
        assertTrue(Hello.problem(new String[] {Wire.VERSION, "HI", "x"}).contains("(6 fields), got 3 fields starting 'JSPIN-RDV/2 HI'"));
        assertEquals("malformed hello: rank 'two' is not a number",
                Hello.problem(fields("j", "two", SecretProof.hex(NONCE), "e")));
        assertTrue(Hello.problem(fields("j", "0", "a-secret-in-clear", "e")).contains("a version 1 client sends its secret there"));
        assertEquals("malformed hello: field 5 is longer than " + Wire.MAX_FIELD + " bytes",
                Hello.problem(fields("j", "0", SecretProof.hex(NONCE), "e".repeat(Wire.MAX_FIELD + 1))));
        assertThrows(ProtocolException.class, () -> Hello.problem(fields("bad%zz", "0", SecretProof.hex(NONCE), "e")));
    }

    @Test
    void claimsAreCheckedAgainstTheJobAndItsSize() {
        Hello h = new Hello("job", 3, NONCE, "h:1");
        assertNull(h.claimsProblem("job", 4));
        assertEquals("rank 3 is out of range [0, 3)", h.claimsProblem("job", 3));
        assertTrue(Wire.isOtherJob(h.claimsProblem("other", 4)), h.claimsProblem("other", 4));
        assertEquals("rank 0 sent a blank endpoint", new Hello("job", 0, NONCE, " ").claimsProblem("job", 1));
        assertEquals("rank -1 is out of range [0, 2)", new Hello("job", -1, NONCE, "e").claimsProblem("job", 2));
    }
}
