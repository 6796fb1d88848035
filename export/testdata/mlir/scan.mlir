"builtin.module"() ({
  "func.func"() <{arg_attrs = [{jax.global_constant = "_platform_index"}, {}, {}, {}], function_type = (tensor<i32>, tensor<f32>, tensor<f32>, tensor<4x2xf32>) -> (tensor<f32>, tensor<4x2xf32>), sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%platform_index: tensor<i32>, %0: tensor<f32>, %1: tensor<f32>, %2: tensor<4x2xf32>):
    %3 = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %4 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %5 = "stablehlo.broadcast_in_dim"(%4) {broadcast_dimensions = array<i64>} : (tensor<f32>) -> tensor<4x2xf32>
    %6:5 = "stablehlo.while"(%3, %0, %1, %2, %5) ({
    ^bb0(%7: tensor<i32>, %8: tensor<f32>, %9: tensor<f32>, %10: tensor<4x2xf32>, %11: tensor<4x2xf32>):
      %12 = "stablehlo.constant"() {value = dense<4> : tensor<i32>} : () -> tensor<i32>
      %13 = "stablehlo.compare"(%7, %12) {compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<i32>, tensor<i32>) -> tensor<i1>
      "stablehlo.return"(%13) : (tensor<i1>) -> ()
    }, {
    ^bb0(%14: tensor<i32>, %15: tensor<f32>, %16: tensor<f32>, %17: tensor<4x2xf32>, %18: tensor<4x2xf32>):
      %19 = "stablehlo.constant"() {value = dense<3> : tensor<i32>} : () -> tensor<i32>
      %20 = "stablehlo.subtract"(%19, %14) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      %21 = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
      %22 = "stablehlo.dynamic_slice"(%17, %20, %21) {slice_sizes = array<i64: 1, 2>} : (tensor<4x2xf32>, tensor<i32>, tensor<i32>) -> tensor<1x2xf32>
      %23 = "stablehlo.reshape"(%22) : (tensor<1x2xf32>) -> tensor<2xf32>
      %24 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
      %25 = "stablehlo.reduce"(%23, %24) ({
      ^bb0(%26: tensor<f32>, %27: tensor<f32>):
        %28 = "stablehlo.add"(%26, %27) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%28) : (tensor<f32>) -> ()
      }) {dimensions = array<i64: 0>} : (tensor<2xf32>, tensor<f32>) -> tensor<f32>
      %29 = "stablehlo.add"(%16, %25) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      %30 = "stablehlo.broadcast_in_dim"(%15) {broadcast_dimensions = array<i64>} : (tensor<f32>) -> tensor<2xf32>
      %31 = "stablehlo.multiply"(%23, %30) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
      %32 = "stablehlo.constant"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
      %33 = "stablehlo.add"(%14, %32) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      %34 = "stablehlo.reshape"(%31) : (tensor<2xf32>) -> tensor<1x2xf32>
      %35 = "stablehlo.dynamic_update_slice"(%18, %34, %20, %21) : (tensor<4x2xf32>, tensor<1x2xf32>, tensor<i32>, tensor<i32>) -> tensor<4x2xf32>
      "stablehlo.return"(%33, %15, %29, %17, %35) : (tensor<i32>, tensor<f32>, tensor<f32>, tensor<4x2xf32>, tensor<4x2xf32>) -> ()
    }) : (tensor<i32>, tensor<f32>, tensor<f32>, tensor<4x2xf32>, tensor<4x2xf32>) -> (tensor<i32>, tensor<f32>, tensor<f32>, tensor<4x2xf32>, tensor<4x2xf32>)
    "func.return"(%6#2, %6#4) : (tensor<f32>, tensor<4x2xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32, sym_name = "jit_scan"} : () -> ()
