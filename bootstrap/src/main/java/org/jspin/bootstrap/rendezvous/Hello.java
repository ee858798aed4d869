package org.jspin.bootstrap.rendezvous;

import java.net.ProtocolException;

import org.jspin.bootstrap.SecretProof;

/**
 * A rank's hello ({@code JSPIN-RDV/2 HELLO <job> <rank> <nonce> <endpoint>}), checked field by
 * field; what is wrong with one is said without ever naming a secret.
 *
 * @param job       the job id it names
 * @param rank      the rank it claims
 * @param nonce     its nonce, {@link SecretProof#BYTES} bytes
 * @param endpoint  its endpoint
 */
record Hello(String job, int rank, byte[] nonce, String endpoint) {
    /**
     * @param f the line's fields (split at single spaces)
     * @return what is wrong with the fields, or null if {@link #of} accepts them
     * @throws ProtocolException for a job id or endpoint with a bad escape or bytes that are not UTF-8
     */
    static String problem(String[] f) throws ProtocolException {
        if (f.length == 0 || !f[0].equals(Wire.VERSION)) {
            String tag = f.length == 0 ? "" : f[0];
            return tag.startsWith("JSPIN-RDV/")
                    ? "unsupported protocol version '" + Wire.printable(tag, 32) + "'; this server speaks " + Wire.VERSION
                    : "not a rendezvous hello: it starts with '" + Wire.printable(tag, 32) + "', expected '" + Wire.VERSION + " HELLO'";
        }
        if (f.length != 6 || !f[1].equals(Wire.HELLO)) {
            return "malformed hello: expected '" + Wire.VERSION + " HELLO <job> <rank> <nonce> <endpoint>' (6 fields), got "
                    + f.length + " fields" + (f.length > 1 ? " starting '" + f[0] + " " + Wire.printable(f[1], 16) + "'" : "");
        }
        for (int i = 2; i < 6; i++) {
            if (f[i].length() > Wire.MAX_FIELD) {
                return "malformed hello: field " + i + " is longer than " + Wire.MAX_FIELD + " bytes";
            }
        }
        Wire.decode(f[2], "job id");
        Wire.decode(f[5], "endpoint");
        try {
            Integer.parseInt(f[3]);
        } catch (NumberFormatException e) {
            return "malformed hello: rank '" + Wire.printable(f[3], 32) + "' is not a number";
        }
        if (SecretProof.unhex(f[4]) == null) {
            return "malformed hello: the nonce is not " + SecretProof.BYTES + " bytes in hex (a version 1 client sends"
                    + " its secret there; this server speaks " + Wire.VERSION + ")";
        }
        return null;
    }

    /** @return the hello in fields that {@link #problem} found nothing wrong with */
    static Hello of(String[] f) throws ProtocolException {
        return new Hello(Wire.decode(f[2], "job id"), Integer.parseInt(f[3]), SecretProof.unhex(f[4]),
                Wire.decode(f[5], "endpoint"));
    }

    /** @return what is wrong with what a proven rank claims for a job {@code jobId} of {@code size} ranks, or null */
    String claimsProblem(String jobId, int size) {
        if (!job.equals(jobId)) {
            return Wire.otherJob(job, jobId);
        }
        if (rank < 0 || rank >= size) {
            return "rank " + rank + " is out of range [0, " + size + ")";
        }
        if (endpoint.isBlank()) {
            return "rank " + rank + " sent a blank endpoint";
        }
        return null;
    }
}
