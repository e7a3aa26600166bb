package io.rill.util;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import org.junit.jupiter.api.Test;

class PlatformInfoTest {

    @Test
    void normalisesOperatingSystemNames() {
        assertEquals("linux", PlatformInfo.normalizeOs("Linux"));
        assertEquals("osx", PlatformInfo.normalizeOs("Mac OS X"));
        assertEquals("osx", PlatformInfo.normalizeOs("Darwin"));
        assertEquals("windows", PlatformInfo.normalizeOs("Windows Server 2022"));
        assertEquals("freebsd", PlatformInfo.normalizeOs("FreeBSD"));
        assertEquals("sunos", PlatformInfo.normalizeOs("SunOS"));
        assertEquals("unknown", PlatformInfo.normalizeOs("Plan 9"));
    }

    @Test
    void normalisesArchitectureNames() {
        assertEquals("x86_64", PlatformInfo.normalizeArch("amd64"));
        assertEquals("x86_64", PlatformInfo.normalizeArch("x86_64"));
        assertEquals("x86_32", PlatformInfo.normalizeArch("i686"));
        assertEquals("aarch_64", PlatformInfo.normalizeArch("aarch64"));
        assertEquals("aarch_64", PlatformInfo.normalizeArch("arm64"));
        assertEquals("ppcle_64", PlatformInfo.normalizeArch("ppc64le"));
        assertEquals("s390_64", PlatformInfo.normalizeArch("s390x"));
        assertEquals("riscv64", PlatformInfo.normalizeArch("riscv64"));
        assertEquals("unknown", PlatformInfo.normalizeArch("vax"));
    }

    @Test
    void describesTheRunningPlatform() {
        assertNotEquals("unknown", PlatformInfo.os());
        assertEquals(PlatformInfo.os() + "-" + PlatformInfo.arch(), PlatformInfo.classifier());
    }
}
