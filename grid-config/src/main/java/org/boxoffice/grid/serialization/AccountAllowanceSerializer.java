package org.boxoffice.grid.serialization;

import com.hazelcast.nio.serialization.compact.CompactReader;
import com.hazelcast.nio.serialization.compact.CompactSerializer;
import com.hazelcast.nio.serialization.compact.CompactWriter;
import org.boxoffice.domain.AccountAllowance;

import java.util.ArrayList;
import java.util.List;

public final class AccountAllowanceSerializer implements CompactSerializer<AccountAllowance> {
    @Override
    public AccountAllowance read(CompactReader in) {
        String[] ids = in.readArrayOfString("holdIds");
        int[] seats = in.readArrayOfInt32("holdSeats");
        long[] expiries = in.readArrayOfInt64("holdExpiries");
        List<AccountAllowance.HoldEntry> holds = new ArrayList<>(ids.length);
        for (int i = 0; i < ids.length; i++) {
            holds.add(new AccountAllowance.HoldEntry(ids[i], seats[i], expiries[i]));
        }
        return new AccountAllowance(holds, in.readInt32("soldSeats"));
    }

    @Override
    public void write(CompactWriter out, AccountAllowance a) {
        int n = a.holds().size();
        String[] ids = new String[n];
        int[] seats = new int[n];
        long[] expiries = new long[n];
        for (int i = 0; i < n; i++) {
            ids[i] = a.holds().get(i).holdId();
            seats[i] = a.holds().get(i).seats();
            expiries[i] = a.holds().get(i).expiresAt();
        }
        out.writeArrayOfString("holdIds", ids);
        out.writeArrayOfInt32("holdSeats", seats);
        out.writeArrayOfInt64("holdExpiries", expiries);
        out.writeInt32("soldSeats", a.soldSeats());
    }

    @Override
    public String getTypeName() {
        return "AccountAllowance";
    }

    @Override
    public Class<AccountAllowance> getCompactClass() {
        return AccountAllowance.class;
    }
}
