package dev.quaestor.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A GitOps repository whose ConfigMap would deploy other files than the policy folder its checks test is caught. */
class ConfigMapListingTest {

    @TempDir
    Path repo;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int listed(String... more) {
        String[] args = new String[more.length + 2];
        args[0] = "listed";
        args[1] = repo.toString();
        System.arraycopy(more, 0, args, 2, more.length);
        return ConfigMapListing.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private void kustomization(String files) throws IOException {
        Files.writeString(repo.resolve("kustomization.yaml"), """
                apiVersion: kustomize.config.k8s.io/v1beta1
                kind: Kustomization
                resources:
                  - ../../base
                configMapGenerator:
                  - name: other
                    files:
                      - other/x.yaml
                  - name: quaestor-policies
                    options:
                      disableNameSuffixHash: true
                    files:
                """ + files);
        Files.createDirectories(repo.resolve("policies"));
    }

    @Test
    void aFolderAndListThatAgreePass() throws IOException {
        kustomization("      - policies/a.yaml\n      - b.yml=policies/b.yml   # keyed\n");
        Files.writeString(repo.resolve("policies/a.yaml"), "rules: []\n");
        Files.writeString(repo.resolve("policies/b.yml"), "rules: []\n");
        Files.writeString(repo.resolve("policies/README.md"), "not a policy\n");
        assertEquals(0, listed(), err.toString());
        assertTrue(out.toString().contains("every policy file"), out.toString());
    }

    @Test
    void aFileTestedButNotListedIsNamed() throws IOException {
        kustomization("      - policies/a.yaml\n");
        Files.writeString(repo.resolve("policies/a.yaml"), "rules: []\n");
        Files.writeString(repo.resolve("policies/zz-deny.yaml"), "rules: []\n");
        Files.writeString(repo.resolve("policies/raw.YAML"), "rules: []\n");
        assertEquals(1, listed());
        String e = err.toString();
        assertTrue(e.contains("zz-deny.yaml: in the folder, so tested, but not listed"), e);
        assertTrue(e.contains("raw.YAML: in the folder"), e);
    }

    @Test
    void aFileListedButMissingOrOutsideOrMisnamedIsNamed() throws IOException {
        kustomization("      - policies/a.yaml\n      - policies/gone.yaml\n      - extra/c.yaml\n      - notes.txt=policies/n.yaml\n");
        Files.writeString(repo.resolve("policies/a.yaml"), "rules: []\n");
        Files.writeString(repo.resolve("policies/n.yaml"), "rules: []\n");
        Files.createDirectories(repo.resolve("extra"));
        Files.writeString(repo.resolve("extra/c.yaml"), "rules: []\n");
        assertEquals(1, listed());
        String e = err.toString();
        assertTrue(e.contains("gone.yaml: listed, but there is no file"), e);
        assertTrue(e.contains("c.yaml: listed from") && e.contains("outside the policy folder"), e);
        assertTrue(e.contains("notes.txt: not a policy file's name"), e);
    }

    /** The file kept as each activation's annotation is delivered as the docs say: one more key, from the pipeline's file. */
    @Test
    void theAnnotationKeyFromAFileThePipelineWritesPasses() throws IOException {
        kustomization("      - policies/a.yaml\n      - .revision-annotation=annotation.txt\n");
        Files.writeString(repo.resolve("policies/a.yaml"), "rules: []\n");
        Files.writeString(repo.resolve("annotation.txt"), "3f2a1c0 alice: records office reads reports\n");
        assertEquals(0, listed(), err.toString());
        // On a pull request the pipeline has not written it yet: still nothing amiss.
        Files.delete(repo.resolve("annotation.txt"));
        assertEquals(0, listed(), err.toString());
    }

    /** A policy file deployed under another name than the one tested: the cluster's revision and errors would differ. */
    @Test
    void aPolicyFileListedUnderAnotherNameIsNamed() throws IOException {
        kustomization("      - records.yaml=policies/records-office.yaml\n");
        Files.writeString(repo.resolve("policies/records-office.yaml"), "rules: []\n");
        assertEquals(1, listed());
        assertTrue(err.toString().contains("records.yaml: listed from records-office.yaml, under another name"), err.toString());
    }

    @Test
    void noSuchGeneratorOrNoKustomizationIsBadUsage() throws IOException {
        assertEquals(2, listed());
        assertTrue(err.toString().contains("no kustomization.yaml"), err.toString());
        Files.writeString(repo.resolve("kustomization.yaml"), "resources: [../../base]\n");
        err.reset();
        assertEquals(2, listed());
        assertTrue(err.toString().contains("no configMapGenerator named quaestor-policies"), err.toString());
    }

    @Test
    void theShippedExampleAgrees() {
        Path example = Path.of("../../deploy/examples/own-policies");
        int status = ConfigMapListing.run(new String[] {"listed", example.toString()},
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(0, status, err.toString());
    }
}
