#!/bin/sh
# Not Java's keytool: the two forms aiokafka's gen-ssl-certs.sh runs, done with openssl, so that the script
# runs unchanged in the image (Rockafka itself reads the PEM files the script also leaves; no Java here).
#   keytool -importkeystore ... -destkeystore OUT -deststorepass P -srckeystore IN.p12 -srcstorepass P
#       copies the PKCS#12 keystore IN.p12 to OUT (PKCS#12, as -deststoretype pkcs12 asks);
#   keytool -keystore OUT -alias A -import -file CERT.pem -storepass P [-noprompt]
#       writes OUT as a PKCS#12 store holding the certificate CERT.pem alone.
# Anything else: one line on stderr, exit 2.
set -eu
mode="" dest="" src="" file="" destpass="" srcpass="" alias_name="cert"
while [ $# -gt 0 ]; do
  case "$1" in
  -importkeystore) mode=copy ;;
  -import | -importcert) mode=trust ;;
  -destkeystore | -keystore) dest=$2; shift ;;
  -srckeystore) src=$2; shift ;;
  -file) file=$2; shift ;;
  -deststorepass | -storepass) destpass=$2; shift ;;
  -srcstorepass) srcpass=$2; shift ;;
  -alias) alias_name=$2; shift ;;
  -deststoretype | -srcstoretype | -storetype) shift ;;
  -noprompt) ;;
  *) echo "keytool (Rockafka image, openssl-based): option $1 is not supported" >&2; exit 2 ;;
  esac
  shift
done
case "$mode" in
copy)
  [ -n "$src" ] && [ -n "$dest" ] || { echo "keytool: -importkeystore needs -srckeystore and -destkeystore" >&2; exit 2; }
  pem=$(mktemp)
  trap 'rm -f "$pem"' EXIT
  openssl pkcs12 -in "$src" -passin "pass:$srcpass" -nodes -out "$pem"
  openssl pkcs12 -export -in "$pem" -out "$dest" -passout "pass:${destpass:-$srcpass}"
  ;;
trust)
  [ -n "$file" ] && [ -n "$dest" ] || { echo "keytool: -import needs -file and -keystore" >&2; exit 2; }
  openssl pkcs12 -export -nokeys -in "$file" -name "$alias_name" -out "$dest" -passout "pass:$destpass"
  ;;
*) echo "keytool (Rockafka image, openssl-based): only -importkeystore and -import are supported" >&2; exit 2 ;;
esac
