package dev.resilience;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import org.springframework.asm.ClassReader;
import org.springframework.asm.ClassVisitor;
import org.springframework.asm.MethodVisitor;
import org.springframework.asm.Opcodes;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The main code of the engine and of the auto-configuration holds no monitor: no
 * {@code synchronized} method or block in its bytecode. On Java 21 a virtual thread that
 * waits while it holds a monitor pins its carrier; Java 24 and later do not pin then, so
 * the JFR recording of the pinning tests (the {@code java-25} run) cannot see it, and
 * this check, which reads the class files, holds on every JDK.
 */
class MonitorFreeCodeTests {

    @Test
    void mainCodeHasNoSynchronizedMethodOrBlock() throws IOException {
        List<String> scanned = new ArrayList<>();
        List<String> monitors = new ArrayList<>();
        for (Resource resource : new PathMatchingResourcePatternResolver()
            .getResources("classpath*:dev/resilience/**/*.class")) {
            String location = resource.getURL().toString();
            if (location.contains("/test-classes/") || location.contains("-tests.jar!")) {
                continue;
            }
            try (InputStream in = resource.getInputStream()) {
                ClassReader reader = new ClassReader(in);
                scanned.add(reader.getClassName());
                reader.accept(new MonitorFinder(reader.getClassName(), monitors), ClassReader.SKIP_DEBUG);
            }
        }

        assertThat(scanned).as("classes of the core").anyMatch((name) -> name.startsWith("dev/resilience/core/"));
        assertThat(scanned).as("classes of the auto-configuration")
            .anyMatch((name) -> name.startsWith("dev/resilience/aop/"));
        assertThat(monitors).isEmpty();
    }

    private static final class MonitorFinder extends ClassVisitor {

        private final String className;

        private final List<String> monitors;

        MonitorFinder(String className, List<String> monitors) {
            super(Opcodes.ASM9);
            this.className = className;
            this.monitors = monitors;
        }

        @Override
        public MethodVisitor visitMethod(int access, String name, String descriptor, String signature,
                String[] exceptions) {
            String method = this.className + "." + name + descriptor;
            if ((access & Opcodes.ACC_SYNCHRONIZED) != 0) {
                this.monitors.add("synchronized method " + method);
            }
            return new MethodVisitor(Opcodes.ASM9) {

                @Override
                public void visitInsn(int opcode) {
                    if (opcode == Opcodes.MONITORENTER) {
                        MonitorFinder.this.monitors.add("synchronized block in " + method);
                    }
                }

            };
        }

    }

}
