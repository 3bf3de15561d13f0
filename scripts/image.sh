#!/usr/bin/env bash
# Builds the container image with Quarkus + Jib into a local tarball, on a machine with no Docker and no registry:
#
#   scripts/image.sh              -> src/server/target/image/quaestor-image.tar (`docker load` / `podman load` format)
#   scripts/image.sh --check      -> also unpacks the image and runs it (chroot, as user 65532, no shell inside):
#                                    the migrate-and-exit mode against PostgreSQL on 127.0.0.1, then timed starts
#                                    to ready as a pod starts, with and without the start-up archive
#   scripts/image.sh --no-archive -> without the start-up archive (below)
#
# After Jib, scripts/image-archive.py runs a training start of the image (its own JVM, in a chroot, against local
# PostgreSQL) and adds the AOT cache it writes as one more layer, mapped by the entrypoint: a JVM uses such an
# archive only if the same JVM build wrote it, so it cannot come from this machine's JDK. Needs root and PostgreSQL.
#
# Where a registry is reachable, this script is not needed: the `image` profile pulls a distroless base and
# pushes (README "Container image"). Here Jib can pull no base image, so:
#   1. scripts/image-base.py builds a minimal base image (jlink'd Temurin 25 runtime + the shared libraries it
#      links, /etc/passwd with user 65532, /tmp; no shell) as a tarball, which Jib reads through tar://;
#   2. Jib writes its result to a Docker daemon by running `docker load`; there is none, so a stand-in `docker`
#      that answers `info` and saves what `load` receives to the tarball is put in its place
#      (quarkus.jib.docker-executable-name).
set -euo pipefail
cd "$(dirname "$0")/.."

out=src/server/target/image
mkdir -p "$out"
java_home="${IMAGE_JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
base="$out/base-image.tar"
image="$out/quaestor-image.tar"

[[ -f "$base" ]] || python3 scripts/image-base.py "$java_home" "$base"

shim="$out/docker-save-shim"
cat > "$shim" <<SHIM
#!/usr/bin/env bash
# Stand-in for 'docker' during the Jib build (scripts/image.sh): 'load' saves the image tarball instead.
case "\$1" in
  info) echo '{"OSType":"linux","Architecture":"x86_64","Driver":"none"}' ;;
  load) cat > "$PWD/$image"; echo "Loaded image: quaestor/quaestor:0.1.0-SNAPSHOT" ;;
  *) echo "docker-save-shim: '\$*' is not supported (no Docker here)" >&2; exit 1 ;;
esac
SHIM
chmod +x "$shim"

# With the archive, the application is packaged as Quarkus's aot-jar: the same layout as the fast-jar, but its classes
# are loaded by the JVM's own class loader, whose classes an AOT cache can hold preloaded and linked (those of the
# fast-jar's class loader it can only hold parsed). Measured on one machine in the same hour: 2.17 s to ready against
# 3.30 s with the fast-jar and its cache. Without an archive the aot-jar starts slower, so it is not used then.
jar_type=()
if [[ " $* " != *" --no-archive "* ]]; then
  jar_type=(-Dquarkus.package.jar.type=aot-jar)
fi

./mvnw -B -q -pl src/server -am package -DskipTests -Pimage "${jar_type[@]}" \
  -Dquarkus.jib.base-jvm-image="tar://$PWD/$base" \
  -Dquarkus.jib.docker-executable-name="$PWD/$shim"
[[ -s "$image" ]] || { echo "image.sh: Jib produced no image tarball" >&2; exit 1; }
echo "image.sh: $image ($(du -m "$image" | cut -f1) MiB)"

if [[ " $* " != *" --no-archive "* ]]; then
  python3 scripts/image-archive.py "$image"
fi
if [[ " $* " == *" --check "* ]]; then
  python3 scripts/image-check.py "$image"
fi
