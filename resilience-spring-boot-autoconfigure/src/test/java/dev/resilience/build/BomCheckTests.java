package dev.resilience.build;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code src/build/BomCheck.java}, which the root pom runs at {@code validate}, run on
 * small reactors written for each case.
 */
class BomCheckTests {

    private static final Path BOM_CHECK = Path.of("..", "src", "build", "BomCheck.java").toAbsolutePath();

    @TempDir
    Path root;

    @Test
    void passesWhenTheBomManagesExactlyThePublishedModules() throws Exception {
        rootPom("<module>resilience-bom</module><module>core</module><module>sample</module>", "");
        bom("core");
        module("core", "", "");
        module("sample", "<properties><maven.deploy.skip>true</maven.deploy.skip></properties>", "");
        Result result = run();
        assertThat(result.exitCode()).as(result.output()).isZero();
        assertThat(result.output()).contains("manages the 1 published modules: core");
    }

    @Test
    void failsWhenAModuleOfAProfileIsPublishedButNotInTheBom() throws Exception {
        rootPom("<module>resilience-bom</module><module>core</module>",
                "<profiles><profile><id>cloud</id><modules><module>cloud</module></modules></profile></profiles>");
        bom("core");
        module("core", "", "");
        module("cloud", "", "");
        Result result = run();
        assertThat(result.exitCode()).isOne();
        assertThat(result.output()).contains("does not manage the published module cloud (cloud)");
    }

    @Test
    void takesMavenDeploySkipInheritedFromTheParentPom() throws Exception {
        rootPom("<module>resilience-bom</module><module>core</module><module>examples</module>", "");
        bom("core");
        module("core", "", "");
        write("examples/pom.xml",
                "<project><modelVersion>4.0.0</modelVersion><parent><groupId>dev.resilience</groupId>"
                        + "<artifactId>resilience-parent</artifactId><version>1.0</version></parent>"
                        + "<artifactId>examples</artifactId><packaging>pom</packaging>"
                        + "<properties><maven.deploy.skip>true</maven.deploy.skip></properties>"
                        + "<modules><module>shop</module><module>published-example</module></modules></project>");
        module("examples/shop", "shop", "examples", "../pom.xml", "", "");
        module("examples/published-example", "published-example", "examples", "../pom.xml",
                "<properties><maven.deploy.skip>false</maven.deploy.skip></properties>", "");
        Result result = run();
        assertThat(result.exitCode()).isOne();
        assertThat(result.output()).doesNotContain("module shop ")
            .contains("does not manage the published module published-example (examples/published-example)");
    }

    @Test
    void failsWhenAPublishedModuleDependsOnAModuleThatIsNotPublished() throws Exception {
        rootPom("<module>resilience-bom</module><module>core</module><module>starter</module><module>testkit</module>",
                "");
        bom("core", "starter");
        module("core", "", "");
        module("testkit", "<properties><maven.deploy.skip>true</maven.deploy.skip></properties>", "");
        module("starter", "", "<dependency><groupId>dev.resilience</groupId><artifactId>core</artifactId></dependency>"
                + "<dependency><groupId>${project.groupId}</groupId><artifactId>testkit</artifactId></dependency>");
        Result result = run();
        assertThat(result.exitCode()).isOne();
        assertThat(result.output()).contains("the published module starter depends on testkit, which is not published")
            .doesNotContain("on core");
    }

    private void rootPom(String modules, String profiles) throws IOException {
        write("pom.xml", "<project><modelVersion>4.0.0</modelVersion><groupId>dev.resilience</groupId>"
                + "<artifactId>resilience-parent</artifactId><version>1.0</version><packaging>pom</packaging>"
                + "<url>https://example.org</url><properties><maven.deploy.skip>false</maven.deploy.skip></properties>"
                + "<modules>" + modules + "</modules>" + profiles + "</project>");
    }

    private void bom(String... artifactIds) throws IOException {
        StringBuilder managed = new StringBuilder();
        for (String artifactId : artifactIds) {
            managed.append("<dependency><groupId>dev.resilience</groupId><artifactId>")
                .append(artifactId)
                .append("</artifactId><version>${project.version}</version></dependency>");
        }
        write("resilience-bom/pom.xml",
                "<project><modelVersion>4.0.0</modelVersion><groupId>dev.resilience</groupId>"
                        + "<artifactId>resilience-bom</artifactId><version>1.0</version><packaging>pom</packaging>"
                        + "<url>https://example.org</url><dependencyManagement><dependencies>" + managed
                        + "</dependencies></dependencyManagement></project>");
    }

    private void module(String directory, String properties, String dependencies) throws IOException {
        module(directory, directory, "resilience-parent", "../pom.xml", properties, dependencies);
    }

    private void module(String directory, String artifactId, String parent, String relativePath, String properties,
            String dependencies) throws IOException {
        write(directory + "/pom.xml",
                "<project><modelVersion>4.0.0</modelVersion><parent><groupId>dev.resilience</groupId>" + "<artifactId>"
                        + parent + "</artifactId><version>1.0</version><relativePath>" + relativePath
                        + "</relativePath></parent><artifactId>" + artifactId + "</artifactId>" + properties
                        + "<dependencies>" + dependencies + "</dependencies></project>");
    }

    private void write(String file, String content) throws IOException {
        Path path = this.root.resolve(file);
        Files.createDirectories(path.getParent());
        Files.writeString(path, content, StandardCharsets.UTF_8);
    }

    private Result run() throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process process = new ProcessBuilder(java.toString(), BOM_CHECK.toString(), this.root.toString())
            .redirectErrorStream(true)
            .start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return new Result(process.exitValue(), output);
    }

    private record Result(int exitCode, String output) {
    }

}
