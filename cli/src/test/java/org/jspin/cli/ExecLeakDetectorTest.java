package org.jspin.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.util.ResourceLeakDetector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A rank turns Netty's leak detector off, unless a level was asked for by either of Netty's property names. */
class ExecLeakDetectorTest {
    private ResourceLeakDetector.Level before;

    @BeforeEach
    void remember() {
        before = ResourceLeakDetector.getLevel();
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.SIMPLE);
    }

    @AfterEach
    void restore() {
        ResourceLeakDetector.setLevel(before);
    }

    @Test
    void offWhenNobodyAskedForALevel() {
        assertTrue(ExecCommand.quietLeakDetector(null, null));
        assertEquals(ResourceLeakDetector.Level.DISABLED, ResourceLeakDetector.getLevel());
    }

    @Test
    void anAskedForLevelStands() {
        assertFalse(ExecCommand.quietLeakDetector("paranoid", null));
        assertEquals(ResourceLeakDetector.Level.SIMPLE, ResourceLeakDetector.getLevel());
        assertFalse(ExecCommand.quietLeakDetector(null, "advanced"));
        assertEquals(ResourceLeakDetector.Level.SIMPLE, ResourceLeakDetector.getLevel());
    }
}
