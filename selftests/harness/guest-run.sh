# SPDX-License-Identifier: GPL-2.0
# Runs the tests of /superp/plan inside a guest (run by the harness's /init,
# output on ttyS1). Plan lines: "kunit MODULE TIMEOUT" or
# "selftest PATH TIMEOUT". Each test is framed by markers the host parses:
#   @@SUPERP-BEGIN NAME  ...  @@SUPERP-END NAME rc=N time=SECONDSs
. /superp/selftests/lib.sh

while read -r kind name timeout; do
	case "$kind" in kunit | selftest) ;; *) continue ;; esac
	if ! barrier "begin $name" </dev/null; then
		echo "@@SUPERP-END $name rc=125 (barrier failed)"
		continue
	fi
	echo "@@SUPERP-BEGIN $name"
	start=$(date +%s)
	if [ "$kind" = kunit ]; then
		timeout "$timeout" /superp/selftests/harness/guest-kunit.sh "$name" </dev/null 2>&1
	else
		(cd "/superp/$(dirname "$name")" && timeout "$timeout" "/superp/$name" </dev/null) 2>&1
	fi
	rc=$?
	echo "@@SUPERP-END $name rc=$rc time=$(($(date +%s) - start))s"
done < /superp/plan
