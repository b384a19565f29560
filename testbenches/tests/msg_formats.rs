//! Message formats (SO-5, SO-6, SO-7): software pack/unpack with bitvec against the documented
//! bit layouts, and the rust-hdl port types' wire layout against the software layout.
use ppu_hdl::msg::*;
use proptest::prelude::*;
use rust_hdl::prelude::*;

fn first_request() -> impl Strategy<Value = FirstRequestFields> {
    (0u16..1 << 14, 0u16..1 << 10, any::<bool>()).prop_map(|(batch_id, task, last)| {
        FirstRequestFields {
            batch_id,
            task,
            last,
        }
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn so5_first_request_pack_unpack_is_identity(f in first_request()) {
        let word = f.pack().unwrap();
        prop_assert!(word < 1 << 25, "first request wider than 25 bits: {:#x}", word);
        prop_assert_eq!(FirstRequestFields::unpack(word).unwrap(), f);
    }

    #[test]
    fn so5_first_request_fields_land_on_their_bits(f in first_request()) {
        let word = f.pack().unwrap();
        // Independent of bitvec: shifts and masks from the SPEC's bit positions.
        prop_assert_eq!(word & 1, f.last as u32);
        prop_assert_eq!((word >> 1) & 0x3ff, f.task as u32);
        prop_assert_eq!((word >> 11) & 0x3fff, f.batch_id as u32);
    }

    #[test]
    fn so5_first_request_port_layout_equals_software_layout(f in first_request()) {
        prop_assert_eq!(first_request_wire(f.to_hw()), f.pack().unwrap());
        prop_assert_eq!(FirstRequestFields::from_hw(f.to_hw()), f);
    }

    #[test]
    fn so6_so7_msg128_pack_unpack_is_identity(lanes in any::<[u32; 4]>()) {
        let m = Msg128Fields(lanes);
        prop_assert_eq!(Msg128Fields::unpack(m.pack()), m);
        prop_assert_eq!(Msg128Fields::from_hw(m.to_hw()), m);
    }

    #[test]
    fn so6_so7_lane_i_lands_on_bits_32i_to_32i_plus_31(lanes in any::<[u32; 4]>()) {
        let word = Msg128Fields(lanes).pack();
        for (i, lane) in lanes.iter().enumerate() {
            prop_assert_eq!((word >> (32 * i)) as u32, *lane, "lane {}", i);
        }
        // Port layout: rust-hdl's flattening of the LogicStruct equals the software word.
        let wire: Bits<128> = Msg128Fields(lanes).to_hw().into();
        prop_assert_eq!(wire.to_u128(), word);
    }

    #[test]
    fn so1_batch_ids_are_consecutive_and_the_phase_flips_on_wrap(raw in 0u16..1 << 14) {
        let id = BatchId(raw);
        let next = id.next();
        if id.counter() == (1 << 13) - 1 {
            prop_assert_eq!(next.counter(), 0);
            prop_assert_ne!(next.phase(), id.phase());
        } else {
            prop_assert_eq!(next.counter(), id.counter() + 1);
            prop_assert_eq!(next.phase(), id.phase());
        }
        prop_assert_eq!(BatchId::new(id.phase(), id.counter()).unwrap(), id);
    }
}

#[test]
fn so5_out_of_range_fields_are_errors_not_truncation() {
    let too_big_task = FirstRequestFields {
        batch_id: 0,
        task: 1024,
        last: false,
    };
    let e = too_big_task.pack().unwrap_err();
    assert_eq!(e.field, "task");
    let too_big_id = FirstRequestFields {
        batch_id: 1 << 14,
        task: 0,
        last: false,
    };
    assert_eq!(too_big_id.pack().unwrap_err().field, "batch_id");
    assert!(FirstRequestFields::unpack(1 << 25).is_err());
    assert!(BatchId::new(false, 1 << 13).is_err());
}
