package org.jspin.error;

import java.util.Objects;

/**
 * The one exception type of jspin: an MPI error class plus a message that names the offending value.
 */
public class MpiException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final ErrorClass errorClass;
    private final String reason;

    /**
     * @param errorClass the MPI error class
     * @param message    what was wrong, naming the argument and its value
     */
    public MpiException(ErrorClass errorClass, String message) {
        super(errorClass + ": " + message);
        this.errorClass = Objects.requireNonNull(errorClass, "errorClass");
        this.reason = message;
    }

    /**
     * @param errorClass the MPI error class
     * @param message    what was wrong, naming the argument and its value
     * @param cause      the underlying failure
     */
    public MpiException(ErrorClass errorClass, String message, Throwable cause) {
        super(errorClass + ": " + message, cause);
        this.errorClass = Objects.requireNonNull(errorClass, "errorClass");
        this.reason = message;
    }

    /** @return the MPI error class of this failure */
    public ErrorClass errorClass() {
        return errorClass;
    }

    /** @return the message without the error-class prefix (for wrapping in a new exception) */
    public String reason() {
        return reason;
    }
}
